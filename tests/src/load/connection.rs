//! One keep-alive HTTP/1.1 connection, read and written by hand so that the generator spends as
//! little of the shared CPU as it can: requests are bytes made once, answers are framed (status,
//! `Content-Length` or chunked, `Connection: close`) but their bodies are not parsed.

use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What the server answered.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    /// The server said it closes the connection after this answer (`Connection: close`), or
    /// spoke HTTP/1.0.
    pub closes: bool,
    /// The wait the answer's `Retry-After` asked for (in seconds, as Zulip's server sends it).
    pub retry_after: Option<std::time::Duration>,
    pub body: Vec<u8>,
}

/// A connection that serves request after request until the server closes it.
pub struct Connection {
    stream: TcpStream,
    /// Bytes read beyond the previous answer.
    pending: Vec<u8>,
}

/// The largest response head accepted.
const MAX_HEAD: usize = 64 * 1024;

impl Connection {
    pub async fn open(address: &str) -> io::Result<Connection> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Connection { stream, pending: Vec::with_capacity(16 * 1024) })
    }

    /// Sends one request (complete bytes, head and body) and reads its answer. An error means
    /// the connection is unusable: the server closed it or sent something that is not HTTP.
    pub async fn exchange(&mut self, request: &[u8]) -> io::Result<Answer> {
        self.stream.write_all(request).await?;
        let (status, closes, retry_after, framing, head_len) = self.read_head().await?;
        self.pending.drain(..head_len);
        let body = match framing {
            Framing::Length(n) => self.take_exact(n).await?,
            Framing::Chunked => self.take_chunked().await?,
            Framing::UntilClose => {
                self.fill_until_eof().await?;
                std::mem::take(&mut self.pending)
            }
        };
        Ok(Answer { status, closes: closes || matches!(framing, Framing::UntilClose), retry_after, body })
    }

    async fn read_head(&mut self) -> io::Result<(u16, bool, Option<std::time::Duration>, Framing, usize)> {
        loop {
            let mut headers = [httparse::EMPTY_HEADER; 64];
            let mut response = httparse::Response::new(&mut headers);
            match response.parse(&self.pending) {
                Ok(httparse::Status::Complete(head_len)) => {
                    let status = response.code.unwrap_or(0);
                    let mut closes = response.version == Some(0);
                    let (mut retry_after, mut framing) = (None, Framing::UntilClose);
                    for header in response.headers.iter() {
                        let value = String::from_utf8_lossy(header.value).to_ascii_lowercase();
                        if header.name.eq_ignore_ascii_case("connection") {
                            closes |= value.contains("close");
                        } else if header.name.eq_ignore_ascii_case("retry-after") {
                            let seconds: f64 = value.trim().parse().unwrap_or(1.0);
                            retry_after = Some(std::time::Duration::from_secs_f64(seconds.clamp(0.0, 60.0)));
                        } else if header.name.eq_ignore_ascii_case("content-length") {
                            let n = value.trim().parse().map_err(|_| invalid("bad Content-Length"))?;
                            framing = Framing::Length(n);
                        } else if header.name.eq_ignore_ascii_case("transfer-encoding")
                            && value.contains("chunked")
                        {
                            framing = Framing::Chunked;
                        }
                    }
                    if status == 204 || status == 304 {
                        framing = Framing::Length(0);
                    }
                    return Ok((status, closes, retry_after, framing, head_len));
                }
                Ok(httparse::Status::Partial) if self.pending.len() < MAX_HEAD => self.fill().await?,
                Ok(httparse::Status::Partial) => return Err(invalid("response head too large")),
                Err(e) => return Err(invalid(&format!("not an HTTP response: {e}"))),
            }
        }
    }

    async fn take_exact(&mut self, n: usize) -> io::Result<Vec<u8>> {
        while self.pending.len() < n {
            self.fill().await?;
        }
        let rest = self.pending.split_off(n);
        Ok(std::mem::replace(&mut self.pending, rest))
    }

    async fn take_chunked(&mut self) -> io::Result<Vec<u8>> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = self.pending.windows(2).position(|w| w == b"\r\n") {
                    break i;
                }
                self.fill().await?;
            };
            let size_text = String::from_utf8_lossy(&self.pending[..line_end]).into_owned();
            let size_hex = size_text.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(size_hex, 16).map_err(|_| invalid("bad chunk size"))?;
            self.pending.drain(..line_end + 2);
            // The chunk and its CRLF (the last chunk: the empty trailer's CRLF).
            let chunk = self.take_exact(size + 2).await?;
            if size == 0 {
                return Ok(body);
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }

    async fn fill_until_eof(&mut self) -> io::Result<()> {
        let mut buffer = [0u8; 16 * 1024];
        loop {
            let read = self.stream.read(&mut buffer).await?;
            if read == 0 {
                return Ok(());
            }
            self.pending.extend_from_slice(&buffer[..read]);
        }
    }

    async fn fill(&mut self) -> io::Result<()> {
        let mut buffer = [0u8; 16 * 1024];
        let read = self.stream.read(&mut buffer).await?;
        if read == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection"));
        }
        self.pending.extend_from_slice(&buffer[..read]);
        Ok(())
    }
}

enum Framing {
    Length(usize),
    Chunked,
    UntilClose,
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_owned())
}
