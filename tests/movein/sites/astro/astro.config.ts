import { defineConfig } from "astro/config";
import { SITE } from "./src/config";

export default defineConfig({
  site: SITE.website,
});
