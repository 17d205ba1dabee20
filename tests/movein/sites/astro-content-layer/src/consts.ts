export const SITE_TITLE = "Quill";
export const SITE_DESCRIPTION = "A notebook kept in plain text.";
export const CONTENT_ROOT = "./content";
