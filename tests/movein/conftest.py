from tests.export.conftest import background  # noqa: F401  (nginx runs in the background)
