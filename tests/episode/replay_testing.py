"""Helpers for the replay-page tests: a hostile agent, and reading a page's
elements back."""

from __future__ import annotations

from html.parser import HTMLParser

from alienworlds.episode.agent_registry import Agent, Reply

INJECTION = (
    "<script>document.body.setAttribute('data-pwned','script')</script>"
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"
    "</pre></details></section><a href='https://example.invalid/'>link</a>&amp;"
)
# the tags the report pages are made of; anything else came from the text
PAGE_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "nav",
    "a",
    "h1",
    "h2",
    "h3",
    "section",
    "div",
    "b",
    "span",
    "pre",
    "code",
    "details",
    "summary",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "p",
    "dl",
    "dt",
    "dd",
    "img",
}


class Hostile(Agent):
    """Another agent's behaviour, with markup in every text it writes:
    its replies, reasoning and tool-call names."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name = inner.name
        self.offline = True

    def config(self) -> dict[str, object]:
        return {**self.inner.config(), "model": INJECTION}

    def respond(self, request) -> Reply:
        reply = self.inner.respond(request)
        message = dict(reply.message)
        message["content"] = (message.get("content") or "") + "\n" + INJECTION
        message["reasoning_content"] = INJECTION
        return Reply(message, reply.usage, reply.attempts)


class Elements(HTMLParser):
    """Every start tag of a document with its attributes."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def find(self, tag: str, **attrs: str) -> list[dict]:
        return [
            a
            for t, a in self.tags
            if t == tag and all(a.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]

    def classed(self, cls: str) -> list[tuple[str, dict]]:
        return [(t, a) for t, a in self.tags if cls in (a.get("class") or "").split()]


def assert_inert(page: str) -> Elements:
    """No element or attribute of the page came from text: only the page's
    own tags, no event handlers, no script, no link off the page."""
    doc = Elements(page)
    assert {t for t, _ in doc.tags} <= PAGE_TAGS, {t for t, _ in doc.tags} - PAGE_TAGS
    for tag, attrs in doc.tags:
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        href = attrs.get("href") or ""
        assert (
            "://" not in href
            and not href.startswith("//")
            and not href.lower().startswith("javascript:")
        ), href
        if tag == "img":
            assert (attrs.get("src") or "").startswith("data:image/"), attrs
    return doc
