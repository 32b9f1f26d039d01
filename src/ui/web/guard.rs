//! What keeps other web sites off the server: a Host allowlist, an Origin check on writes and
//! the security headers of every answer.
//!
//! A page on any web site can make the user's browser send requests to `127.0.0.1`, and a
//! name the attacker controls can be made to resolve to it (DNS rebinding). So the server
//! answers only requests whose `Host` is one of its own names: an IP address, `localhost`,
//! `*.localhost`, or a name given with `castellan serve --allow-host NAME` (421 otherwise). A
//! request that changes something (any method but GET, HEAD and OPTIONS, or an upgrade to
//! another protocol) must come from the server's own page: its `Origin` must be
//! `http://HOST` or `https://HOST` for the request's own `Host` (403 otherwise). Browsers send
//! `Origin` with every such request; a scripted client (curl) that sends none must send
//! `X-Castellan: 1` instead, a header a page of another site cannot add without the server's
//! consent (CORS), which this server never gives. Any request that carries a foreign `Origin`
//! is refused, reads included.
//!
//! Every answer says: no script or style but the server's own files (CSP `default-src 'self'`,
//! no inline script), no framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), no
//! content sniffing and no referrer to other sites.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The header a scripted client sends on writes in place of `Origin`.
pub const SCRIPTED: &str = "x-castellan";

/// The Content-Security-Policy of every answer.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
                       img-src 'self' data:; connect-src 'self'; object-src 'none'; \
                       base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The names (besides IP addresses, `localhost` and `*.localhost`) the server answers to.
#[derive(Clone, Debug, Default)]
pub struct Hosts {
    names: Vec<String>,
}

impl Hosts {
    /// The server's own names besides the ones always allowed (compared without case).
    pub fn new(names: &[String]) -> Hosts {
        Hosts {
            names: names.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether `host` (a `Host` header: a name or address, maybe a port) names this server.
    pub fn allows(&self, host: &str) -> bool {
        let Some(name) = name_of(host) else {
            return false;
        };
        let name = name.to_ascii_lowercase();
        name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.contains(&name)
    }
}

/// The name or address of a `Host` header without its port; `None` when it is malformed.
fn name_of(host: &str) -> Option<&str> {
    if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 address: `[::1]` or `[::1]:8080`.
        let (address, after) = rest.split_once(']')?;
        let port_ok = after.is_empty() || after.strip_prefix(':').is_some_and(is_port);
        return port_ok.then_some(address);
    }
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.'));
    (plain && port.is_none_or(is_port)).then_some(name)
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// The application behind the guards: Host and Origin checks, then security headers on every
/// answer (refusals included).
pub fn guarded(app: axum::Router, hosts: Hosts) -> axum::Router {
    app.layer(middleware::from_fn_with_state(Arc::new(hosts), check))
        .layer(middleware::map_response(headers))
}

async fn check(State(hosts): State<Arc<Hosts>>, request: Request, next: Next) -> Response {
    match refusal(&hosts, request.method(), request.headers()) {
        Some(refused) => refused,
        None => next.run(request).await,
    }
}

/// Why a request is refused, if it is.
fn refusal(hosts: &Hosts, method: &Method, headers: &HeaderMap) -> Option<Response> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let Some(host) = host.filter(|h| hosts.allows(h)) else {
        return Some(refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only to its own names (IP addresses, localhost, *.localhost \
             and names given with --allow-host)",
        ));
    };
    let origin = headers.get(header::ORIGIN).map(HeaderValue::as_bytes);
    let own = |o: &[u8]| {
        o == format!("http://{host}").as_bytes() || o == format!("https://{host}").as_bytes()
    };
    match origin {
        Some(o) if !own(o) => Some(refuse(
            StatusCode::FORBIDDEN,
            "requests from another site's page are refused",
        )),
        None if writes(method, headers) && headers.get(SCRIPTED).is_none_or(|v| v != "1") => {
            Some(refuse(
                StatusCode::FORBIDDEN,
                "a request that changes something needs an Origin header (browsers send it) \
                 or, from a script, the header `X-Castellan: 1`",
            ))
        }
        _ => None,
    }
}

/// Whether a request may change something: any method but GET, HEAD and OPTIONS, or an
/// upgrade to another protocol (WebSocket).
fn writes(method: &Method, headers: &HeaderMap) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
        || headers.contains_key(header::UPGRADE)
}

fn refuse(status: StatusCode, why: &'static str) -> Response {
    (
        status,
        axum::Json(serde_json::json!({"error": why, "diagnostics": []})),
    )
        .into_response()
}

async fn headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_names_are_allowed_and_others_not() {
        let hosts = Hosts::new(&["castle.lan".to_string()]);
        for ok in [
            "127.0.0.1:8080",
            "192.168.1.5",
            "[::1]:8080",
            "localhost:8080",
            "LOCALHOST",
            "game.localhost:1",
            "castle.lan:8080",
            "Castle.LAN",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "localhost.evil.example",
            "castle.lan.evil",
            "",
            "127.0.0.1:80:80",
            "[::1]x",
            "a b",
            "127.0.0.1:port",
        ] {
            assert!(!hosts.allows(bad), "{bad}");
        }
    }
}
