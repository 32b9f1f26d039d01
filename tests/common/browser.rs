//! What the browser tests share (tests/browser.rs, tests/browser_seats.rs): a temporary
//! folder, chromedriver on a free port (stopped when dropped), a headless Chromium session of a
//! given size with its own profile (a phone or a tablet emulated with touch), and a [`Tab`] to
//! load the server's pages, run JavaScript, wait for it, click and save screenshots.
#![allow(dead_code)] // each test file uses its own part of it

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A desktop window's size (width, height) in CSS pixels; smaller sizes are emulated phones
/// and tablets.
pub const DESKTOP: (u32, u32) = (1280, 800);

/// A port no one listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A fresh temporary folder `castellan-SUITE-PID-WHAT`.
pub fn temp(suite: &str, what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-{suite}-{}-{what}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// chromedriver on its port, stopped (with its browsers) when dropped, also when a test failed
/// half-way.
pub struct Driver {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl Driver {
    /// Starts chromedriver (`CHROMEDRIVER` names another binary) and waits until it listens.
    pub async fn start() -> Driver {
        let port = free_port();
        let child = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("chromedriver".into()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts (apt-get install chromium chromium-driver)");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver listens");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Driver { child, port }
    }

    /// A headless Chromium (`CHROMIUM` names another binary) whose page is `size` CSS pixels,
    /// with its own profile in `profile` (its own storage, as another person's computer); a
    /// size narrower than [`DESKTOP`] is an emulated phone or tablet (its exact viewport,
    /// touch).
    pub async fn session(&self, size: (u32, u32), profile: &Path) -> Client {
        let mut options = json!({
            "binary": std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage",
                     format!("--window-size={},{}", size.0, size.1),
                     format!("--user-data-dir={}", profile.display())],
        });
        if size.0 < DESKTOP.0 {
            options["mobileEmulation"] = json!({"deviceMetrics":
                {"width": size.0, "height": size.1, "pixelRatio": 1, "touch": true}});
        }
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), options);
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        use std::io::{Read, Write};
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = write!(
                s,
                "GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            );
            let _ = s.read(&mut [0u8; 512]);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser session on a server's pages.
pub struct Tab {
    /// The WebDriver session.
    pub client: Client,
    /// The server's address (`http://127.0.0.1:PORT`).
    pub base: String,
    /// The screenshot's name: `target/browser-shots/SHOT.png`.
    pub shot_name: String,
    /// How long [`Tab::until`] waits.
    pub patience: Duration,
}

impl Tab {
    /// Loads the server's page at `path`.
    pub async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .expect("the page loads");
    }

    /// The value of a JavaScript expression on the page.
    pub async fn value(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return {expression};"), vec![])
            .await
            .expect("the script runs")
    }

    /// Waits (up to [`Tab::patience`]) until the JavaScript expression is true; saves a
    /// screenshot and fails if it never is.
    pub async fn until(&self, expression: &str) {
        let deadline = Instant::now() + self.patience;
        while self.value(&format!("!!({expression})")).await != json!(true) {
            if Instant::now() > deadline {
                self.shot().await;
                panic!("{}: waited in vain for {expression}", self.shot_name);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Clicks the first element `css` selects.
    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Types `text` into the field `css` selects, emptied first.
    pub async fn type_into(&self, css: &str, text: &str) {
        let field = self.client.find(Locator::Css(css)).await.expect("a field");
        field.clear().await.expect("cleared");
        field.send_keys(text).await.expect("typed");
    }

    /// Saves a screenshot as `target/browser-shots/SHOT.png`.
    pub async fn shot(&self) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
        std::fs::create_dir_all(&dir).expect("the shots folder");
        std::fs::write(dir.join(format!("{}.png", self.shot_name)), png).expect("saved");
    }

    /// Saves the screenshot and closes the session.
    pub async fn end(self) {
        self.shot().await;
        let _ = self.client.clone().close().await;
    }
}
