#!/usr/bin/env python3
"""Keystroke-to-diagnostics latency of `nodecast server` (the README's "In the editor" numbers).

Usage: tools/lsp-latency.py REPO FILE [--nodecast BIN] [--edits N] [--debounce-ms MS]

Starts the server in REPO the way an editor does (initialize, initialized, didOpen FILE), then
types: each edit is one didChange that adds or changes a kernel argument of the MachineConfig in
FILE (inserted under its `spec:`), and the time from sending it to receiving the
publishDiagnostics of that document version is one measurement. The first check after didOpen is
the cold one (nothing cached in the server; the render cache as it is on disk). Debouncing is
part of what a user waits for and is included; the server's own check time (its log line
"checked in N ms") is printed beside it. Nothing is written into REPO.
"""

import argparse
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import threading
import time


def frames(stream, out):
    while True:
        headers = {}
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.decode().strip()
            if not line:
                break
            key, value = line.split(":", 1)
            headers[key.lower()] = value.strip()
        body = stream.read(int(headers["content-length"]))
        out.put((time.monotonic(), json.loads(body)))


def log_lines(stream, out):
    for line in stream:
        line = line.decode(errors="replace").rstrip()
        if os.environ.get("NODECAST_TIMINGS") and "timing" in line:
            print("  server:", line[len("nodecast timing: "):], flush=True)
        m = re.search(r"checked in (\d+) ms", line)
        if m:
            out.put(int(m.group(1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("file")
    ap.add_argument("--nodecast", default="target/release/nodecast")
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--debounce-ms", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()

    repo = os.path.abspath(args.repo)
    server = subprocess.Popen(
        [os.path.abspath(args.nodecast), "server"],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    messages, checks = queue.Queue(), queue.Queue()
    threading.Thread(target=frames, args=(server.stdout, messages), daemon=True).start()
    threading.Thread(target=log_lines, args=(server.stderr, checks), daemon=True).start()
    next_id = [0]

    def send(message):
        body = json.dumps(dict(jsonrpc="2.0", **message)).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def wait(pred):
        deadline = time.monotonic() + args.timeout
        while True:
            item = messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if item is None:
                sys.exit("the server exited")
            if pred(item[1]):
                return item

    def request(method, params):
        next_id[0] += 1
        send(dict(id=next_id[0], method=method, params=params))
        return wait(lambda m: m.get("id") == next_id[0])[1]

    # Each run types text no earlier run typed: a render of the edited overlay is never already in
    # the render cache on disk.
    token = f"{os.getpid()}{int(time.time())}"
    uri = "file://" + os.path.join(repo, args.file)
    text = open(os.path.join(repo, args.file), encoding="utf-8").read()
    lines = text.split("\n")
    spec = lines.index("spec:")
    request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": "file://" + repo,
            "capabilities": {},
            "initializationOptions": {"debounceMs": args.debounce_ms},
        },
    )
    send(dict(method="initialized", params={}))

    def published(version):
        return lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"].get("version") == version
        )

    def drain_checks():
        found = []
        while True:
            try:
                found.append(checks.get_nowait())
            except queue.Empty:
                return found

    start = time.monotonic()
    send(
        dict(
            method="textDocument/didOpen",
            params={"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
    )
    t, _ = wait(published(1))
    time.sleep(0.2)
    cold = t - start
    print(f"cold: didOpen -> diagnostics {cold * 1000:.0f} ms (checks: {drain_checks()} ms)")

    warm, hovers = [], []
    for n in range(args.edits):
        version = n + 2
        if n == 0:
            change = {
                "range": {"start": {"line": spec + 1, "character": 0}, "end": {"line": spec + 1, "character": 0}},
                "text": f"  kernelArguments:\n  - nosmt{token}x0\n",
            }
        else:
            # Replace the argument just written: `  - nosmtN` on the line after `kernelArguments:`.
            change = {
                "range": {"start": {"line": spec + 2, "character": 0}, "end": {"line": spec + 3, "character": 0}},
                "text": f"  - nosmt{token}x{n}\n",
            }
        start = time.monotonic()
        send(
            dict(
                method="textDocument/didChange",
                params={"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
            )
        )
        t, m = wait(published(version))
        warm.append(t - start)
        asked = time.monotonic()
        answer = request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": spec + 1, "character": 4}},
        )
        hovers.append(time.monotonic() - asked)
        time.sleep(0.2)
        first = (answer.get("result") or {}).get("contents", {}).get("value", "").split("\n")
        print(
            f"edit {n + 1}: didChange -> diagnostics {(t - start) * 1000:.0f} ms "
            f"({len(m['params']['diagnostics'])} diagnostics; checks: {drain_checks()} ms); "
            f"hover {hovers[-1] * 1000:.1f} ms: {first[4] if len(first) > 4 else first}"
        )
    if warm:
        print(
            f"warm: median {statistics.median(warm) * 1000:.0f} ms, "
            f"min {min(warm) * 1000:.0f} ms, max {max(warm) * 1000:.0f} ms over {len(warm)} edits "
            f"(debounce {args.debounce_ms} ms included); hover median "
            f"{statistics.median(hovers) * 1000:.1f} ms"
        )
    try:
        with open(f"/proc/{server.pid}/status") as status:
            peak = [l.split()[1] for l in status if l.startswith("VmHWM:")]
        if peak:
            print(f"server peak RSS: {int(peak[0]) / 1024:.0f} MiB")
    except OSError:
        pass
    request("shutdown", None)
    send(dict(method="exit"))
    server.wait(timeout=30)


if __name__ == "__main__":
    main()
