"""Every element of a rendered page with its attributes, for the report's acceptance tests."""
from html.parser import HTMLParser


class Tags(HTMLParser):
    """Every element of a page, with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
