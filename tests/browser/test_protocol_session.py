"""The concurrency benchmark's browserless sessions (``bench.protocol_session``) run the app's
pages as a browser's session does: they would otherwise measure a server doing nothing."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.protocol_session import ProtocolSession

pytestmark = pytest.mark.browser


def _run(scenario):
    """Run a coroutine in a thread of its own: the browser tests' Playwright keeps an event
    loop running in this one, where ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, scenario()).result()


def test_a_protocol_session_runs_a_page_and_steps_its_number_inputs(app_url):
    async def scenario():
        session = ProtocolSession(app_url, "instability")
        await session.open()
        labels = {widget.label for widget in session.number_inputs.values()}
        depth = next(k for k, w in session.number_inputs.items() if w.label.startswith("Maximum"))
        before = session.number_inputs[depth].default
        assert await session.step(0) and await session.step(0)
        after = session.values[depth][0]
        await session.close()
        return labels, before, after, session.errors

    labels, before, after, errors = _run(scenario)
    assert any(label.startswith("Maximum depth") for label in labels)
    assert after == before + 2 and errors == []  # two full runs, no exception shown


def test_a_page_without_number_inputs_is_not_stepped(app_url):
    async def scenario():
        session = ProtocolSession(app_url, "")
        await session.open()
        stepped = await session.step(0)
        await session.close()
        return stepped

    assert _run(scenario) is False
