"""/docs in Chromium: Swagger UI comes from the app itself (vendored), so it draws every API
operation with no request leaving the server, and under the strict CSP without errors."""
import pytest

pytestmark = pytest.mark.browser


def test_api_docs_render_offline(page):
    outside = []

    def only_the_server(route):
        if route.request.url.startswith(page.base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(page.base + "/docs")
    page.wait_for_selector(".opblock", timeout=30000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/run" in p for p in paths) and any("/api/lessons" in p for p in paths)
    assert outside == []
