"""A real browser: JupyterLab and the classic Notebook interface on loopback, notebook 10 run in headless Chromium,
widgets rendered and clicked.

Debian's chromium is driven by Playwright through `executable_path` (no browser download). `.ci/run` installs it;
without it the test skips and says why. The screenshot is kept in test-artifacts/.
"""
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import ROOT, free_port

CHROMIUM = shutil.which("chromium")
ARTIFACTS = ROOT / "test-artifacts"
# flags for a machine with no network but loopback and no GPU
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


INTERFACES = {  # (command, URL path, the app's option that exposes it to the page)
    "lab": ("lab", "lab/tree", "--LabApp.expose_app_in_browser=True"),
    "notebook": ("notebook", "notebooks", "--JupyterNotebookApp.expose_app_in_browser=True"),
}


@pytest.fixture(params=sorted(INTERFACES))
def jupyter(request, tmp_path):
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work)  # JupyterLab autosaves: never let it touch the committed notebooks
    port, token = free_port(), "react-teach-test"
    log = open(tmp_path / "lab.log", "w")
    command, path, expose = INTERFACES[request.param]
    lab = subprocess.Popen([sys.executable, "-m", "jupyter", command, "--no-browser", "--ip=127.0.0.1",
                            f"--port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
                            expose, "--allow-root"], stdout=log, stderr=subprocess.STDOUT, cwd=work)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2).read()
            break
        except OSError:
            if lab.poll() is not None or time.time() > deadline:
                lab.kill()
                raise RuntimeError(f"jupyter {command} did not start:\n" + (tmp_path / "lab.log").read_text()[-3000:])
            time.sleep(0.5)
    yield base, token, path, request.param
    lab.terminate()
    lab.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_notebook_08_widgets_render_and_respond(jupyter):
    from playwright.sync_api import sync_playwright

    base, token, path, interface = jupyter
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{base}/{path}/10_editing_thoughts.ipynb?token={token}")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                               " && window.jupyterapp.shell.currentWidget.sessionContext"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel",
                               timeout=120_000)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        # every cell has run when no prompt shows [*] and the last cell printed its checks
        page.wait_for_function("() => document.querySelectorAll('.jp-InputPrompt').length > 0"
                               " && ![...document.querySelectorAll('.jp-InputPrompt')]"
                               "     .some(e => e.textContent.includes('*'))"
                               " && document.body.innerText.includes('the original branch is kept unchanged')",
                               timeout=400_000, polling=1000)
        page.screenshot(path=str(ARTIFACTS / f"notebook08_{interface}_after_run.png"), full_page=False)
        assert "Error displaying widget" not in page.content()
        assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        viewer = page.locator(".widget-vbox").filter(has=page.locator("button", has_text="Next ▶")).first
        viewer.scroll_into_view_if_needed()
        readout = viewer.locator(".widget-readout").first
        # textContent, not innerText: JupyterLab may skip rendering cells scrolled out of view
        page.wait_for_function("e => e.textContent.trim() === '0'", arg=readout.element_handle(), timeout=30_000)
        before = viewer.locator(".widget-html-content").last.text_content()
        viewer.locator("button", has_text="Next ▶").click()
        page.wait_for_function("e => e.textContent.trim() === '1'", arg=readout.element_handle(), timeout=30_000)
        after = viewer.locator(".widget-html-content").last.text_content()
        assert "Observation 1:" in after and after != before
        viewer.screenshot(path=str(ARTIFACTS / f"notebook08_{interface}_trace_viewer.png"))
        browser.close()
