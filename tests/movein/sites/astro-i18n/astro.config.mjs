import { defineConfig } from "astro/config";

// Astro's i18n routing: English at /blog/<id>/, the other locales under /<locale>/blog/<id>/.
export default defineConfig({
  site: "https://notebook.example.com",
  i18n: {
    defaultLocale: "en",
    locales: ["en", "fr", "ja"],
    routing: { prefixDefaultLocale: false },
  },
});
