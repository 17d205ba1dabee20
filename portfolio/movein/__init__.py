"""Moving in: another generator's blog (Astro, Hugo, Jekyll) converted into a content folder,
its old addresses kept as aliases (`manage.py import_from`, docs/moving-in.md)."""
