import { defineConfig } from "astro/config";

export default defineConfig({
  site: "https://quill.example.io",
});
