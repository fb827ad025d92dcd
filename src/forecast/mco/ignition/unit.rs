//! systemd unit contents as Ignition parses them (`go-systemd/v22/unit.Deserialize`, which
//! Ignition's `ParseUnitContents` calls for every unit and drop-in): a content it cannot lex makes
//! the whole config invalid. Ported step by step, including the `bufio.Reader` (4096 bytes) whose
//! fill level decides when a line counts as longer than systemd's 2048-byte `LINE_MAX`.

/// `SYSTEMD_LINE_MAX` of go-systemd.
const LINE_MAX: usize = 2048;
/// `bufio.NewReader`'s default size.
const BUF_SIZE: usize = 4096;

/// A `bufio.Reader` over an in-memory string (a `strings.Reader` fills the buffer completely).
struct Buf<'a> {
    src: &'a [u8],
    /// Next unread byte of `src`.
    fed: usize,
    buf: Vec<u8>,
    r: usize,
    w: usize,
    eof: bool,
    last_rune: Option<usize>,
}

impl<'a> Buf<'a> {
    fn new(src: &'a str) -> Self {
        Buf {
            src: src.as_bytes(),
            fed: 0,
            buf: vec![0; BUF_SIZE],
            r: 0,
            w: 0,
            eof: false,
            last_rune: None,
        }
    }

    fn fill(&mut self) {
        if self.r > 0 {
            self.buf.copy_within(self.r..self.w, 0);
            self.w -= self.r;
            self.r = 0;
        }
        let n = (BUF_SIZE - self.w).min(self.src.len() - self.fed);
        if n == 0 {
            self.eof = true;
            return;
        }
        self.buf[self.w..self.w + n].copy_from_slice(&self.src[self.fed..self.fed + n]);
        self.w += n;
        self.fed += n;
    }

    fn buffered(&self) -> usize {
        self.w - self.r
    }

    /// `utf8.FullRune`: an invalid sequence counts as a full (one-byte error) rune.
    fn full_rune(bytes: &[u8]) -> bool {
        match std::str::from_utf8(bytes) {
            Ok(s) => !s.is_empty(),
            Err(e) => e.valid_up_to() > 0 || e.error_len().is_some(),
        }
    }

    /// Go's `ReadRune`: invalid UTF-8 is one byte of `U+FFFD`.
    fn read_rune(&mut self) -> Option<char> {
        while self.r + 4 > self.w
            && !Self::full_rune(&self.buf[self.r..self.w])
            && !self.eof
            && self.w - self.r < BUF_SIZE
        {
            self.fill();
        }
        self.last_rune = None;
        if self.r == self.w {
            return None;
        }
        let rest = &self.buf[self.r..self.w];
        let (ch, size) = if rest[0] < 0x80 {
            (rest[0] as char, 1)
        } else {
            let take = rest.len().min(4);
            match (1..=take).find_map(|n| {
                std::str::from_utf8(&rest[..n])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map(|c| (c, n))
            }) {
                Some(found) => found,
                None => (char::REPLACEMENT_CHARACTER, 1),
            }
        };
        self.r += size;
        self.last_rune = Some(size);
        Some(ch)
    }

    fn unread_rune(&mut self) {
        if let Some(size) = self.last_rune.take() {
            self.r -= size;
        }
    }

    /// `ReadBytes(delim)`: up to and including `delim`, or everything left with `false` at EOF.
    fn read_bytes(&mut self, delim: u8) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        loop {
            if let Some(i) = self.buf[self.r..self.w].iter().position(|&b| b == delim) {
                out.extend_from_slice(&self.buf[self.r..self.r + i + 1]);
                self.r += i + 1;
                self.last_rune = None;
                return (out, true);
            }
            if self.eof {
                out.extend_from_slice(&self.buf[self.r..self.w]);
                self.r = self.w;
                self.last_rune = None;
                return (out, false);
            }
            if self.buffered() >= BUF_SIZE {
                out.extend_from_slice(&self.buf[self.r..self.w]);
                self.r = self.w;
            }
            self.fill();
        }
    }

    fn peek(&mut self, n: usize) -> &[u8] {
        while self.w - self.r < n && self.w - self.r < BUF_SIZE && !self.eof {
            self.fill();
        }
        let end = (self.r + n).min(self.w);
        &self.buf[self.r..end]
    }
}

#[derive(Clone, Copy)]
enum Step {
    NextSection,
    SectionName,
    SectionSuffix,
    IgnoreLine(bool),
    SectionOrOption,
    OptionName,
    OptionValue,
}

fn is_comment(c: char) -> bool {
    c == '#' || c == ';'
}

/// `toEOL`: the rest of the line without `\n` / `\r\n`, and whether EOF ended it.
fn to_eol(b: &mut Buf<'_>) -> (Vec<u8>, bool) {
    let (mut line, found) = b.read_bytes(b'\n');
    // `TrimSuffix("\r")` then `TrimSuffix("\n")`: a CRLF line keeps its `\r`.
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    (line, !found)
}

fn trim_space(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.trim().as_bytes(),
        Err(_) => bytes.trim_ascii(),
    }
}

/// Why Ignition cannot parse a unit's or drop-in's contents, in go-systemd's words.
pub fn parse_error(contents: &str) -> Option<String> {
    let mut b = Buf::new(contents);
    let mut step = Step::NextSection;
    loop {
        if b.buffered() >= LINE_MAX && !b.peek(LINE_MAX).iter().any(|c| *c == b'\r' || *c == b'\n')
        {
            return Some(format!("line too long (max {LINE_MAX} bytes)"));
        }
        step = match step {
            Step::NextSection => match b.read_rune() {
                None => return None,
                Some('[') => Step::SectionName,
                Some(c) if is_comment(c) => Step::IgnoreLine(false),
                Some(_) => Step::NextSection,
            },
            Step::SectionName => {
                let (_, found) = b.read_bytes(b']');
                if !found {
                    return Some("unable to find end of section".into());
                }
                Step::SectionSuffix
            }
            Step::SectionSuffix => {
                let (garbage, _) = to_eol(&mut b);
                let garbage = trim_space(&garbage);
                if !garbage.is_empty() {
                    return Some(format!(
                        "found garbage after section name: {:?}",
                        String::from_utf8_lossy(garbage)
                    ));
                }
                Step::SectionOrOption
            }
            Step::IgnoreLine(in_section) => {
                loop {
                    let (line, _) = to_eol(&mut b);
                    let line = line.strip_suffix(b" ").unwrap_or(&line);
                    if !line.ends_with(b"\\") {
                        break;
                    }
                }
                if in_section {
                    Step::SectionOrOption
                } else {
                    Step::NextSection
                }
            }
            Step::SectionOrOption => match b.read_rune() {
                None => return None,
                Some(c) if c.is_whitespace() => Step::SectionOrOption,
                Some('[') => Step::SectionName,
                Some(c) if is_comment(c) => Step::IgnoreLine(true),
                Some(_) => {
                    b.unread_rune();
                    Step::OptionName
                }
            },
            Step::OptionName => loop {
                match b.read_rune() {
                    None => return Some("EOF".into()),
                    Some('\n' | '\r') => {
                        return Some(
                            "unexpected newline encountered while parsing option name".into(),
                        )
                    }
                    Some('=') => break Step::OptionValue,
                    Some(_) => {}
                }
            },
            Step::OptionValue => {
                let (line, _) = to_eol(&mut b);
                if !trim_space(&line).is_empty() && line.ends_with(b"\\") {
                    Step::OptionValue
                } else {
                    Step::SectionOrOption
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::parse_error;

    #[test]
    fn valid_units_parse() {
        assert_eq!(parse_error(""), None);
        assert_eq!(
            parse_error("[Unit]\nDescription=x\n\n[Service]\nExecStart=/bin/true \\\n  --flag\n# c\n[Install]\nWantedBy=multi-user.target\n"),
            None
        );
        assert_eq!(parse_error("garbage before a section\n[Unit]\nA=b"), None);
        assert_eq!(parse_error("[Unit]\r\nA=b\r\n"), None);
    }

    #[test]
    fn go_systemd_errors() {
        assert_eq!(
            parse_error("[Unit\nA=b\n").as_deref(),
            Some("unable to find end of section"),
            "the section name runs to the next `]` even across lines"
        );
        assert_eq!(parse_error("[Unit\nA=b]\n"), None);
        assert_eq!(
            parse_error("[Unit").as_deref(),
            Some("unable to find end of section")
        );
        assert!(parse_error("[Unit] x\nA=b\n")
            .unwrap()
            .starts_with("found garbage after section name"));
        assert_eq!(
            parse_error("[Unit]\nNoEquals\nA=b\n").as_deref(),
            Some("unexpected newline encountered while parsing option name")
        );
        assert_eq!(parse_error("[Unit]\nNoEquals").as_deref(), Some("EOF"));
        let long = format!("[Service]\nExecStart=/bin/echo {}\n", "x".repeat(2100));
        assert_eq!(
            parse_error(&long).as_deref(),
            Some("line too long (max 2048 bytes)")
        );
        let fine = format!("[Service]\nExecStart=/bin/echo {}\n", "x".repeat(1900));
        assert_eq!(parse_error(&fine), None);
    }
}
