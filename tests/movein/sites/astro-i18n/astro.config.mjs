import { defineConfig } from "astro/config";

// Astro's i18n routing: English at /blog/<id>/, the other locales under /<locale's path>/blog/<id>/
// (French at /french/: a locale written with its path and its language codes).
export default defineConfig({
  site: "https://notebook.example.com",
  i18n: {
    defaultLocale: "en",
    locales: ["en", { path: "french", codes: ["fr", "fr-CA"] }, "ja"],
    routing: { prefixDefaultLocale: false },
  },
});
