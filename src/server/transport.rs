//! JSON-RPC over stdio with `Content-Length` framing, written so that no input ends the server:
//! `lsp-server`'s own stdio transport stops reading at the first malformed message, but an editor
//! (or a broken extension) may send one and expect an error back. A frame that is not JSON gets a
//! parse error, JSON that is not a message an invalid-request error, each with the request's id
//! when it can be read (`null` otherwise); the next frame is read as usual. End of input (the
//! client went away) ends the session.

use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use lsp_server::Message;
use serde_json::{json, Value};

use super::Event;

/// Longest header line read (a client never sends more than a few dozen bytes).
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// Largest message body accepted; a larger one is skipped with an error (a whole manifest file
/// of the size limit, escaped, fits).
const MAX_BODY: usize = 256 * 1024 * 1024;

/// What the writer thread writes.
enum Outgoing {
    /// One message, as its JSON.
    Message(Value),
    /// Write nothing more and end.
    Stop,
}

/// Sends messages to the client, from any thread; each is written whole, in the order sent.
#[derive(Clone)]
pub struct Out(Sender<Outgoing>);

impl Out {
    /// Sends a message (a response, a notification, a request of the server).
    pub fn send(&self, message: Message) {
        if let Ok(Value::Object(mut map)) = serde_json::to_value(&message) {
            map.insert("jsonrpc".into(), "2.0".into());
            let _ = self.0.send(Outgoing::Message(Value::Object(map)));
        }
    }

    /// An error response whose request id could not be read (`id: null`).
    fn error(&self, id: Value, code: lsp_server::ErrorCode, message: String) {
        let _ = self.0.send(Outgoing::Message(json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": code as i32, "message": message},
        })));
    }
}

/// The writer thread, so the server can wait for what it sent to be written before it exits.
pub struct Writer {
    out: Out,
    thread: std::thread::JoinHandle<()>,
}

impl Writer {
    /// Writes what was sent before, then stops (waiting at most `limit`: a client that stopped
    /// reading must not keep the server alive).
    pub fn finish(self, limit: Duration) {
        let _ = self.out.0.send(Outgoing::Stop);
        let deadline = Instant::now() + limit;
        while !self.thread.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Starts the reader (stdin → `events`) and the writer (→ stdout) threads.
pub fn stdio(events: Sender<Event>) -> (Out, Writer) {
    let (tx, rx) = mpsc::channel::<Outgoing>();
    let out = Out(tx);
    let thread = std::thread::Builder::new()
        .name("nodecast-lsp-writer".into())
        .spawn(move || write_all(rx, std::io::stdout()))
        .map_err(|e| eprintln!("nodecast server: cannot start the writer: {e}"));
    let reader_out = out.clone();
    let _ = std::thread::Builder::new()
        .name("nodecast-lsp-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            read_all(&mut stdin.lock(), &events, &reader_out);
            let _ = events.send(Event::Gone);
        });
    let thread = match thread {
        Ok(t) => t,
        // Without a writer nothing can be answered: a thread that ends at once stands in.
        Err(()) => std::thread::spawn(|| {}),
    };
    (out.clone(), Writer { out, thread })
}

fn write_all(rx: Receiver<Outgoing>, stdout: std::io::Stdout) {
    while let Ok(Outgoing::Message(value)) = rx.recv() {
        let Ok(text) = serde_json::to_string(&value) else {
            continue;
        };
        let mut lock = stdout.lock();
        let written = write!(lock, "Content-Length: {}\r\n\r\n", text.len())
            .and_then(|_| lock.write_all(text.as_bytes()))
            .and_then(|_| lock.flush());
        if written.is_err() {
            // The client is gone; the reader sees the end of its input too.
            return;
        }
    }
}

/// Reads frames until the end of input, handing each message on and answering what cannot be
/// read.
pub fn read_all(input: &mut impl BufRead, events: &Sender<Event>, out: &Out) {
    loop {
        match read_frame(input) {
            Frame::End => return,
            Frame::Bad(problem) => out.error(
                Value::Null,
                lsp_server::ErrorCode::ParseError,
                format!("unreadable message: {problem}"),
            ),
            Frame::Body(body) => match parse(&body) {
                Ok(message) => {
                    if events.send(Event::Client(message)).is_err() {
                        return;
                    }
                }
                Err((id, code, problem)) => out.error(id, code, problem),
            },
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    Bad(String),
    End,
}

/// One frame: headers up to an empty line, then `Content-Length` bytes.
fn read_frame(input: &mut impl BufRead) -> Frame {
    let mut length: Option<usize> = None;
    let mut bad: Option<String> = None;
    let mut any = false;
    loop {
        let mut line = Vec::new();
        match input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)
        {
            Ok(0) | Err(_) => return Frame::End,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") {
            // A header line longer than any real one: not this protocol.
            bad.get_or_insert_with(|| "a header line is too long".into());
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !any {
                // Blank lines between frames are tolerated.
                continue;
            }
            break;
        }
        any = true;
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => {
                        bad.get_or_insert_with(|| format!("bad Content-Length `{}`", value.trim()));
                    }
                }
            }
            Some(_) => {}
            None => {
                bad.get_or_insert_with(|| format!("malformed header `{text}`"));
            }
        }
    }
    let Some(length) = length else {
        return Frame::Bad(bad.unwrap_or_else(|| "no Content-Length header".into()));
    };
    if length > MAX_BODY {
        // Skip the body so the next frame is read from its start.
        let skipped = std::io::copy(
            &mut input.by_ref().take(length as u64),
            &mut std::io::sink(),
        );
        return match skipped {
            Ok(n) if n == length as u64 => Frame::Bad(format!(
                "a message of {length} bytes is larger than {MAX_BODY} bytes"
            )),
            _ => Frame::End,
        };
    }
    let mut body = vec![0u8; length];
    if input.read_exact(&mut body).is_err() {
        return Frame::End;
    }
    match bad {
        Some(problem) => Frame::Bad(problem),
        None => Frame::Body(body),
    }
}

type Unreadable = (Value, lsp_server::ErrorCode, String);

/// A body as a message, or the error response it gets.
fn parse(body: &[u8]) -> Result<Message, Unreadable> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        (
            Value::Null,
            lsp_server::ErrorCode::ParseError,
            format!("the message is not JSON: {e}"),
        )
    })?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    if !value.is_object() || value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((
            id,
            lsp_server::ErrorCode::InvalidRequest,
            "not a JSON-RPC 2.0 message (an object with \"jsonrpc\": \"2.0\")".into(),
        ));
    }
    serde_json::from_value::<Message>(value).map_err(|e| {
        (
            id,
            lsp_server::ErrorCode::InvalidRequest,
            format!("not a request, response or notification: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> (Vec<String>, Vec<Value>) {
        let (etx, erx) = mpsc::channel();
        let (otx, orx) = mpsc::channel();
        read_all(&mut &input[..], &etx, &Out(otx));
        drop(etx);
        let methods = erx
            .iter()
            .filter_map(|e| match e {
                Event::Client(Message::Notification(n)) => Some(n.method),
                Event::Client(Message::Request(r)) => Some(r.method),
                _ => None,
            })
            .collect();
        let errors = orx
            .try_iter()
            .filter_map(|o| match o {
                Outgoing::Message(v) => Some(v),
                Outgoing::Stop => None,
            })
            .collect();
        (methods, errors)
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn a_malformed_frame_is_answered_and_the_next_one_read() {
        let input = [
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#),
            "X-Nonsense\r\n\r\n".to_string(),
            frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
            frame(r#"[1,2]"#),
            frame(r#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#),
        ]
        .concat();
        let (methods, errors) = frames(input.as_bytes());
        assert_eq!(methods, ["initialized", "shutdown"]);
        let summary: Vec<(Value, i64)> = errors
            .iter()
            .map(|e| (e["id"].clone(), e["error"]["code"].as_i64().unwrap_or(0)))
            .collect();
        assert_eq!(
            summary,
            [
                (Value::Null, -32700),
                (json!(7), -32600),
                (Value::Null, -32700),
                (Value::Null, -32600),
            ]
        );
    }

    #[test]
    fn a_truncated_frame_ends_the_input() {
        let (methods, errors) = frames(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"");
        assert!(methods.is_empty() && errors.is_empty());
    }
}
