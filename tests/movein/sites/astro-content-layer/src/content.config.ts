import { defineCollection, z } from "astro:content";
import { glob } from "astro/loaders";
import { CONTENT_ROOT } from "./consts";

// Posts live outside src/, next to the drafts folder.
const POSTS_DIR = `${CONTENT_ROOT}/posts`;

const writing = defineCollection({
  loader: glob({ base: `${POSTS_DIR}`, pattern: "**/[^_]*.{md,mdx}" }),
  schema: ({ image }) =>
    z.object({
      title: z.string(),
      published: z.coerce.date(),
      cover: image().optional(),
      tags: z.array(z.string()).default([]),
    }),
});

export const collections = { writing };
