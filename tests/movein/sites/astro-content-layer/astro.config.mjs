import { defineConfig } from "astro/config";

// A GitHub project site: its pages served under /quill (Astro puts the slashes it needs).
export default defineConfig({
  site: "https://quill.example.io",
  base: "quill",
});
