"""Scale-out fails safe (issue 27 §5): a Dask address that never answers, sends a huge
frame, or uses a scheme this Dask cannot speak ends in one ``LitqError`` within a
bounded time, never a hang, a MemoryError or a TypeError."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from dask import distributed

from litqeval_gui.cli import main
from litqeval_gui.core import scaleout
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.scaleout import map_tasks


@contextmanager
def hostile_server(reply: bytes | None) -> Iterator[str]:
    """A loopback server that accepts and then sends ``reply`` after the client's first
    bytes (None: never answers); yields its ``tcp://`` address."""
    server = socket.create_server(("127.0.0.1", 0))
    kept: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            kept.append(conn)
            if reply is not None:
                conn.recv(65536)
                conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in kept:
            conn.close()
        server.close()


def slow(item: int) -> int:
    time.sleep(3)
    return item


def test_a_server_that_accepts_and_never_answers_times_out(monkeypatch):
    monkeypatch.setattr(scaleout, "DASK_CONNECT_SECONDS", 1.0)
    with hostile_server(None) as address:
        start = time.monotonic()
        with pytest.raises(LitqError, match=r"did not answer within 1 s"):
            map_tasks(abs, [1, 2], dask_address=address)
    assert time.monotonic() - start < 10


def test_a_huge_frame_length_is_one_line_not_memory_error():
    with hostile_server(struct.pack("<Q", 2**62)) as address:
        with pytest.raises(LitqError, match="sent a message too large to hold"):
            map_tasks(abs, [1, 2], dask_address=address)


def test_a_cluster_that_returns_no_result_times_out(monkeypatch):
    monkeypatch.setattr(scaleout, "DASK_RESULT_SECONDS", 0.5)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with pytest.raises(LitqError, match=r"returned no result for 0.5 s \(2 of 2 tasks"):
            map_tasks(slow, [1, 2], dask_address=cluster.scheduler_address)


@pytest.mark.parametrize(("address", "message"), [
    ("http://127.0.0.1:8786", "Dask does not connect over http:// (it knows inproc://"),
    ("foo://x", "Dask does not connect over foo://"),
    ("ucx://127.0.0.1:8786", "cannot connect over ucx://"),
    ("tls://127.0.0.1:8786", "tls:// needs the client's certificate"),
    ("wss://127.0.0.1:8786", "wss:// needs the client's certificate"),
])
def test_schemes_dask_cannot_use_here_are_refused_by_name(address, message):
    start = time.monotonic()
    with pytest.raises(LitqError) as caught:
        map_tasks(abs, [1], dask_address=address)
    assert message in str(caught.value) and time.monotonic() - start < 5


def test_the_cli_prints_one_line_and_exits_2_on_a_silent_scheduler(monkeypatch, capsys,
                                                                   tmp_path):
    monkeypatch.setattr(scaleout, "DASK_CONNECT_SECONDS", 1.0)
    runs = tmp_path / "runs.txt"
    runs.write_text("T Q0 d1 1 1.0 r\n", encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("T 0 d1 1\n", encoding="utf-8")
    with hostile_server(None) as address:
        code = main(["pool-simulate", "--runs", str(runs), "--qrels", str(qrels),
                     "--dask", address])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "did not answer within 1 s" in err, err
