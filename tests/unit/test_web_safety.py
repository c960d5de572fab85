"""The pure parts of the site's protections (issue 48, items 1 and 2): which URLs from data may become links,
markdown that makes no link of text, the public base URL and trusted hosts from the environment, and the
proxy headers `weft serve` trusts (as uvicorn reads its options)."""

from __future__ import annotations

import pytest
import uvicorn

from weft.graph.settings import DEFAULT_BASE_URL, Settings, load_settings
from weft.server.protections import own_url, proxy_options
from weft.server.site.links import web_link
from weft.server.site.render import as_markdown


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/pdf/2108.04680",
        "http://example.org/a.pdf?x=1#p2",
        "HTTPS://Example.org/O'Brien.pdf",
        "https://[2001:db8::1]/x.pdf",
    ],
)
def test_web_urls_stay_links(url: str) -> None:
    assert web_link(url) == url
    assert web_link(f"  {url}\n") == url


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "\x01javascript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "//evil.example/x.pdf",
        "/papers/x",
        "x.pdf",
        "https://",
        "https:///path",
        "https:\\\\evil.example",
        "https://exa mple.org/x",
        "https://[::1/x",
        "",
        None,
        42,
    ],
)
def test_anything_else_is_no_link(url: object) -> None:
    assert web_link(url) is None


def test_markdown_makes_no_link_of_text_or_of_a_non_web_href() -> None:
    html = (
        "<!-- main --><h1>[click](javascript:alert(1)) ![x](javascript:alert(2))</h1>"
        '<p><a href="javascript:alert(3)">PDF</a> <a href="data:text/html,x">data</a> '
        '<a href="/papers/x">here</a> <a href="https://arxiv.org/abs/1">arXiv</a> <a href="?page=2">next</a></p>'
        "<!-- /main -->"
    )
    markdown = as_markdown(html)
    assert "](javascript" not in markdown.replace("\\](javascript", "") and "data:" not in markdown
    assert "\\[click\\](javascript:alert(1))" in markdown  # shown as typed, escaped
    assert "PDF" in markdown and "[here](/papers/x)" in markdown and "[arXiv](https://arxiv.org/abs/1)" in markdown
    assert "[next](?page=2)" in markdown


def test_public_url_and_trusted_hosts_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEFT_PUBLIC_URL", raising=False)
    monkeypatch.delenv("WEFT_ALLOWED_HOSTS", raising=False)
    local = load_settings()
    assert local.base_url == DEFAULT_BASE_URL
    assert set(local.trusted_hosts) == {"127.0.0.1", "localhost", "[::1]"}

    monkeypatch.setenv("WEFT_PUBLIC_URL", "https://Weft.example.org/")
    public = load_settings()
    assert public.base_url == "https://Weft.example.org"
    assert "weft.example.org" in public.trusted_hosts and "evil.example" not in public.trusted_hosts

    monkeypatch.setenv("WEFT_ALLOWED_HOSTS", "weft.example.org, *.weft.example.org,::1")
    assert load_settings().trusted_hosts == ("weft.example.org", "*.weft.example.org", "[::1]")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEFT_PUBLIC_URL", "javascript:alert(1)"),
        ("WEFT_PUBLIC_URL", "weft.example.org"),
        ("WEFT_PUBLIC_URL", "https://weft.example.org/?x=1"),
        ("WEFT_PUBLIC_URL", "https://weft.example.org:port"),
        ("WEFT_ALLOWED_HOSTS", "weft.*.org"),
    ],
)
def test_a_bad_value_is_a_one_line_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as exc:
        load_settings()
    assert str(exc.value).startswith(f"{name}") and "\n" not in str(exc.value)


def test_weft_serve_names_its_own_address_when_no_public_url() -> None:
    assert own_url("127.0.0.1", 8101) == "http://127.0.0.1:8101"
    assert own_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"  # a wildcard bind is no address to link to
    assert own_url("::1", 8000) == "http://[::1]:8000"


def test_proxy_headers_are_trusted_only_from_configured_proxies() -> None:
    """The options `weft serve` gives uvicorn, as uvicorn's Config takes them."""
    unset = uvicorn.Config("weft.server.app:serving_app", **proxy_options(Settings()))
    assert unset.proxy_headers is False  # uvicorn's own default trusts X-Forwarded-* from 127.0.0.1
    configured = Settings(forwarded_allow_ips="10.0.0.2,10.0.0.3")
    proxied = uvicorn.Config("weft.server.app:serving_app", **proxy_options(configured))
    assert proxied.proxy_headers is True and proxied.forwarded_allow_ips == "10.0.0.2,10.0.0.3"
