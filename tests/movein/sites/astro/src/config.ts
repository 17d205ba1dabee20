export const SITE = {
  website: "https://paper.example.dev/",
  author: "Rin Okabe",
  profile: "https://example.dev/rin",
  desc: "Short essays on tools and typesetting.",
  title: "Paper Trail",
  ogImage: "og.jpg",
  postPerPage: 4,
} as const;
