"""The web example's server under hostile requests (run by run_tests.sh before the browser's tests),
over HTTP alone: a request line no URL can be made of, a foreign Host (DNS rebinding) or Origin, a
command that is not JSON or lacks its fields, and an event stream whose client never reads. It
starts a server of its own (a free port, a fresh database, GET /stats on, a small stream limit) and
checks after each test that it still runs. Prints "ok N - name" or "not ok N - name" per test, then
"server: N passed, N failed"."""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

from report import run_tests

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LIBRARY = os.environ.get("MVVM_TODO_LIBRARY", os.path.join(ROOT, "build", "todo", "libtodo.so"))
# What a stream may hold unsent: small, so that a client that never reads passes it soon.
STREAM_LIMIT = 256 * 1024


class Server:
    def __init__(self, scratch):
        self.log = open(os.path.join(scratch, "server.log"), "w+")
        self.process = subprocess.Popen(
            ["node", os.path.join(ROOT, "examples", "web", "server.js"), "--port", "0",
             "--storage", os.path.join(scratch, "todos.sqlite"), "--library", LIBRARY,
             "--sse-buffer-limit", str(STREAM_LIMIT), "--stats"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.port = None
        end = time.monotonic() + 60
        while self.port is None and time.monotonic() < end and self.process.poll() is None:
            self.log.seek(0)
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.log.read())
            if found:
                self.port = int(found.group(1))
            else:
                time.sleep(0.05)
        if self.port is None:
            raise RuntimeError("the server did not start:\n" + self.output())

    def output(self):
        self.log.seek(0)
        return self.log.read()

    def running(self):
        return self.process.poll() is None

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()

    @property
    def host(self):
        return "127.0.0.1:%d" % self.port

    def request(self, method, path, body=None, headers=None):
        """(status, body) of a request whose headers are exactly these (Host included)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            sent = {"Host": self.host}
            sent.update(headers or {})
            for name, value in sent.items():
                if value is not None:
                    connection.putheader(name, value)
            data = body.encode() if isinstance(body, str) else body
            if data is not None:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            return response.status, response.read().decode()
        finally:
            connection.close()

    def command(self, fields, headers=None):
        sent = {"Content-Type": "application/json"}
        sent.update(headers or {})
        return self.request("POST", "/api", json.dumps(fields), sent)[0]

    def stream(self, headers=None):
        """An open event stream: (connection, response), its first event (the state) unread."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.putrequest("GET", "/events", skip_host=True)
        sent = {"Host": self.host}
        sent.update(headers or {})
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders()
        return connection, connection.getresponse()

    def state(self):
        """The state a new event stream begins with."""
        connection, response = self.stream()
        try:
            assert response.status == 200, response.status
            event, data = read_event(response)
            assert event == "state", event
            return data
        finally:
            connection.close()

    def titles(self):
        return [item["title"] for item in self.state()["items"]]

    def stats(self):
        status, body = self.request("GET", "/stats")
        assert status == 200, "GET /stats answered %d (%s)" % (status, body)
        return json.loads(body)


def read_event(response):
    """The next server-sent event of a stream: (name, data as JSON)."""
    event, data = None, None
    while True:
        line = response.readline()
        if not line:
            raise EOFError("the stream ended")
        line = line.decode().rstrip("\r\n")
        if line == "":
            if event is not None:
                return event, data
            continue
        field, _, value = line.partition(": ")
        if field == "event":
            event = value
        elif field == "data":
            data = json.loads(value)


def test_a_request_line_no_url_can_be_made_of_is_a_400(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as raw:
        raw.sendall(("GET http://[ HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % server.host).encode())
        answer = b""
        while True:
            chunk = raw.recv(65536)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert server.request("GET", "/")[0] == 200, "the server still answers"


def test_a_foreign_host_is_refused(server):
    before = server.titles()
    for path in ("/", "/app.js", "/events"):
        status, body = server.request("GET", path, headers={"Host": "rebound.example:%d" % server.port})
        assert status == 403, (path, status, body)
    assert server.request("GET", "/", headers={"Host": "127.0.0.1"})[0] == 403, "the port belongs to the name"
    assert server.command({"action": "add", "title": "rebound"}, {"Host": "rebound.example:%d" % server.port}) == 403
    assert server.titles() == before, "nothing stored"
    for host in ("localhost", "127.0.0.1", "[::1]", "LOCALHOST"):
        assert server.request("GET", "/", headers={"Host": "%s:%d" % (host, server.port)})[0] == 200, host


def test_a_foreign_origin_is_refused(server):
    before = server.titles()
    for origin in ("http://attacker.example", "http://127.0.0.1:%d" % (server.port + 1), "null",
                   "https://127.0.0.1:%d" % server.port):
        status = server.command({"action": "add", "title": "from " + origin}, {"Origin": origin})
        assert status == 403, (origin, status)
        connection, response = server.stream({"Origin": origin})
        try:
            assert response.status == 403, (origin, response.status)
        finally:
            connection.close()
    assert server.titles() == before, "nothing stored"
    assert server.command({"action": "add", "title": "same origin"}, {"Origin": "http://%s" % server.host}) == 204
    assert server.command({"action": "add", "title": "by localhost"},
                          {"Origin": "http://localhost:%d" % server.port, "Host": "localhost:%d" % server.port}) == 204
    assert server.titles() == before + ["same origin", "by localhost"]


def test_a_command_that_is_not_json_is_refused(server):
    before = server.titles()
    body = json.dumps({"action": "add", "title": "plain text"})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        status, _ = server.request("POST", "/api", body, {"Content-Type": content_type})
        assert status == 415, (content_type, status)
    assert server.titles() == before, "nothing stored"
    status, _ = server.request("POST", "/api", body, {"Content-Type": "Application/JSON; charset=utf-8"})
    assert status == 204, status
    assert server.titles() == before + ["plain text"]


def test_a_command_without_its_fields_is_refused(server):
    assert server.command({"action": "add", "title": "a todo to name"}) == 204
    before = server.state()
    for fields in ({"action": "add"}, {"action": "add", "title": None}, {"action": "add", "title": 7},
                   {"action": "toggle", "id": before["items"][0]["id"]},
                   {"action": "toggle", "id": str(before["items"][0]["id"]), "completed": True},
                   {"action": "toggle_all", "completed": "yes"}, {"action": "edit", "id": before["items"][0]["id"]},
                   {"action": "destroy"}, {"action": "add", "title": "\ud800 half a pair"}):
        status, body = server.request("POST", "/api", json.dumps(fields), {"Content-Type": "application/json"})
        assert status == 400, (fields, status, body)
        assert json.loads(body)["error"], body
    for body in ("null", "[]", "7", '"add"', "{"):
        status, _ = server.request("POST", "/api", body, {"Content-Type": "application/json"})
        assert status == 400, (body, status)
    assert server.state() == before, "nothing stored"


def test_a_stream_that_is_never_read_is_dropped_at_its_limit_and_a_new_one_resyncs(server):
    # A client that never reads, with a small receive window: what it does not take piles up in
    # the server, which must keep at most STREAM_LIMIT bytes for it, then drop it.
    paused = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    paused.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    paused.connect(("127.0.0.1", server.port))
    paused.sendall(("GET /events HTTP/1.1\r\nHost: %s\r\n\r\n" % server.host).encode())
    # A client that reads, in step with the edits: never dropped.
    connection, reading = server.stream()
    read_event(reading)
    assert server.command({"action": "add", "title": "edited"}) == 204
    item = next(i for i in server.state()["items"] if i["title"] == "edited")
    while read_event(reading)[0] != "splice":
        pass
    assert len(server.stats()["streams"]) == 2
    edits = 0
    title = ""
    # Each edit is one event of ~32 kB; the paused stream's kernel buffers take some first.
    while server.stats()["dropped"] == 0:
        assert edits < 2000, "the paused stream was never dropped (%s)" % server.stats()
        title = ("%d " % edits) + ("x" * 32 * 1024)
        assert server.command({"action": "edit", "id": item["id"], "title": title}) == 204
        edits += 1
        while True:
            event, data = read_event(reading)
            if event == "item" and data == {"id": item["id"], "name": "title", "value": title}:
                break
        for stream in server.stats()["streams"]:
            assert stream["buffered"] <= STREAM_LIMIT, "a stream holds %d bytes unsent" % stream["buffered"]
    stats = server.stats()
    assert stats["dropped"] == 1 and len(stats["streams"]) == 1, stats
    # The paused client finds its stream ended (what was sent, then the end or a reset).
    paused.settimeout(60)
    try:
        while paused.recv(1 << 20):
            pass
    except ConnectionResetError:
        pass
    paused.close()
    # The reading client still hears changes; a new stream (the page's EventSource reconnecting)
    # begins with the whole state, the last edit included.
    assert server.command({"action": "toggle", "id": item["id"], "completed": True}) == 204
    while read_event(reading) != ("item", {"id": item["id"], "name": "completed", "value": True}):
        pass
    connection.close()
    state = server.state()
    assert {"id": item["id"], "title": title, "completed": True} in state["items"]
    assert state["properties"]["completedCount"] >= 1


TESTS = [test_a_request_line_no_url_can_be_made_of_is_a_400, test_a_foreign_host_is_refused,
         test_a_foreign_origin_is_refused, test_a_command_that_is_not_json_is_refused,
         test_a_command_without_its_fields_is_refused,
         test_a_stream_that_is_never_read_is_dropped_at_its_limit_and_a_new_one_resyncs]


def main():
    with tempfile.TemporaryDirectory(prefix="mvvm-web-server.") as scratch:
        servers = [Server(scratch)]

        def run(test):
            test(servers[0])
            assert servers[0].running(), "the server ended"

        def restart_if_ended(test):
            if not servers[0].running():
                print("== the server's log:\n" + servers[0].output())
                servers[0].stop()
                servers[0] = Server(scratch)

        try:
            return run_tests("server", TESTS, run, restart_if_ended)
        finally:
            servers[0].stop()


if __name__ == "__main__":
    sys.exit(main())
