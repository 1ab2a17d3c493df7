"""The viewer's heavy answers (reach, ZOC, supply, command, check, victory) in worker processes.

Each answer is computed in a process forked from the server, so it starts with the opened position already in
memory and sends back only its JSON.  No lock is held meanwhile: every other request is answered at once.  At most
:data:`WORKERS` run together (the others wait for a turn); one that takes longer than :data:`ANSWER_SECONDS`,
waiting included, is killed and answered 503; :meth:`Workers.stop` (the server stopping, Ctrl-C) kills them all.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import threading
import time
from typing import Any, Callable

from ..answers import REFUSALS, error_text
from .queries import WebError

ANSWER_SECONDS = 30.0   # one answer's time limit, its wait for a worker included
WORKERS = 2             # answers computed at the same time
PR_SET_PDEATHSIG = 1    # Linux prctl: the signal a process gets when its parent dies
POLL_SECONDS = 0.2      # how often an answer waiting for a worker looks whether the server is stopping
log = logging.getLogger("toolkit.web")


class Unavailable(WebError):
    """An answer the server could not give in time (or while stopping)."""

    status = 503


class Workers:
    """Forked worker processes for heavy answers, at most ``workers`` at a time, each under ``seconds``."""

    def __init__(self, seconds: float = ANSWER_SECONDS, workers: int = WORKERS) -> None:
        self.seconds = seconds
        self.slots = threading.BoundedSemaphore(workers)
        self.running: set[Any] = set()
        self.lock = threading.Lock()
        self.stopped = False

    def run(self, what: str, fn: Callable[..., Any], *args: Any, answers: int = 1) -> Any:
        """``fn(*args)`` computed in a worker: its result; a refusal there is raised here as a :class:`WebError`
        (its status and message), a bug as a ``RuntimeError``; :class:`Unavailable` past the time limit (that of
        ``answers`` answers: a request that asks several, the moves of ``/api/play``, has each one's time)."""
        seconds = self.seconds * max(1, answers)
        deadline = time.monotonic() + seconds
        self._take_slot(what, seconds, deadline)
        try:
            ok, value = self._in_worker(what, seconds, fn, args, deadline)
        finally:
            self.slots.release()
        if ok:
            return value
        status, message, extra = value
        if status >= 500:
            raise RuntimeError(message)
        err = WebError(message)
        err.status, err.extra = status, extra
        raise err

    def _take_slot(self, what: str, seconds: float, deadline: float) -> None:
        """Wait for a worker's turn until ``deadline``, looking every :data:`POLL_SECONDS` whether the server is
        stopping (Ctrl-C never waits for a turn)."""
        while not self.slots.acquire(timeout=POLL_SECONDS):
            if self.stopped:
                raise Unavailable("the server is stopping")
            if time.monotonic() >= deadline:
                raise self._too_slow(what, seconds)

    def _in_worker(self, what: str, seconds: float, fn, args, deadline: float) -> tuple[bool, Any]:
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        with self.lock:
            if self.stopped:
                raise Unavailable("the server is stopping")
            worker = ctx.Process(target=_work, args=(send, receive, os.getpid(), fn, args), daemon=True)
            worker.start()
            self.running.add(worker)
        send.close()
        try:
            if not receive.poll(max(0.0, deadline - time.monotonic())):
                raise self._too_slow(what, seconds)
            return receive.recv()
        except (EOFError, OSError):   # killed (mid-answer, too): the server is stopping
            raise Unavailable("the server is stopping") from None
        finally:
            worker.kill()
            worker.join()
            receive.close()
            with self.lock:
                self.running.discard(worker)

    def _too_slow(self, what: str, seconds: float) -> Unavailable:
        return Unavailable(f"{what}: not answered within {seconds:g} s (the viewer's limit per answer, "
                           "docs/web.md); the position is too large for it")

    def stop(self) -> None:
        """Kill every worker; answers asked from now on are refused."""
        with self.lock:
            self.stopped = True
            for worker in self.running:
                worker.kill()


def _work(send, receive, server: int, fn: Callable[..., Any], args: tuple) -> None:
    """The worker: ``(True, result)`` or ``(False, (status, message, extra))`` sent back; it dies with the server
    (pid ``server``).  The pipe's reading end, inherited by the fork, is closed here: with the server gone, a long
    answer then fails at once instead of waiting for a reader that will never come."""
    receive.close()
    _die_with_parent(server)
    try:
        out: tuple[bool, Any] = (True, fn(*args))
    except (*REFUSALS, WebError) as err:
        out = (False, (getattr(err, "status", 400), error_text(err), getattr(err, "extra", None)))
    except RecursionError:
        out = (False, (400, "the input is nested too deeply", None))
    except Exception as err:  # noqa: BLE001 -- a bug: logged here, answered 500 by the server
        log.error("internal error in a worker", exc_info=err)
        out = (False, (500, f"{type(err).__name__}: {err}", None))
    send.send(out)


def _die_with_parent(server: int) -> None:
    """On Linux, this process is killed when the server that forked it dies, even by SIGKILL (no worker is left
    holding a request's connection open), and ends at once when the server died before it could ask that;
    elsewhere the worker ends with its answer."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != server:   # the server died between the fork and prctl
        os._exit(0)
