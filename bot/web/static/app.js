// The web table's entry point: who the page is (Telegram's launch data or a local secret),
// Telegram's theme, and the wiring between the connection and the view.

import { Connection } from "/static/socket.js";
import { notice, render } from "/static/view.js";

const THEME = {
  bg_color: "bg-color",
  text_color: "text-color",
  hint_color: "hint-color",
  link_color: "link-color",
  button_color: "button-color",
  button_text_color: "button-text-color",
  secondary_bg_color: "secondary-bg-color",
  destructive_text_color: "destructive-text-color",
};

function launch() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  return {
    initData: hash.get("tgWebAppData") || "",
    theme: hash.get("tgWebAppThemeParams"),
    local: hash.get("local") || "",
    game: hash.get("game") || query.get("game") || query.get("tgWebAppStartParam") || "",
  };
}

function applyTheme(params) {
  if (!params) return;
  const style = document.documentElement.style;
  for (const [key, name] of Object.entries(THEME)) {
    if (typeof params[key] === "string") style.setProperty(`--tg-theme-${name}`, params[key]);
  }
}

function telegram() {
  // Telegram's own script: ready(), full height, and theme changes while the page is open.
  const script = document.createElement("script");
  script.src = "https://telegram.org/js/telegram-web-app.js";
  script.onload = () => {
    const app = window.Telegram && window.Telegram.WebApp;
    if (!app) return;
    app.ready();
    app.expand();
    applyTheme(app.themeParams);
    app.onEvent("themeChanged", () => applyTheme(app.themeParams));
  };
  document.head.append(script);
}

const start = launch();
if (start.theme) {
  try {
    applyTheme(JSON.parse(start.theme));
  } catch {
    // a theme we cannot read: the system's colors stay
  }
}
if (start.initData) telegram();

let state = null;
let leaveArmed = false;
const hello = {
  t: "hello",
  game: start.game,
  lang: navigator.language || "",
  ...(start.local ? { local: start.local } : { init_data: start.initData }),
};
const press = (key) => connection.send({ t: "press", key });
const connection = new Connection(hello, {
  frame(frame) {
    // How many frames arrived: what a test (or a person's assistive tool) may wait on.
    document.body.dataset.frames = String(Number(document.body.dataset.frames || 0) + 1);
    if (frame.t === "state") {
      state = frame;
      hello.game = String(frame.game); // a new match (a rematch) is the one to reconnect to
      leaveArmed = false;
      document.body.classList.remove("offline");
      render(frame, press);
    } else if (frame.t === "notice") {
      notice(frame.text, frame.error);
    }
  },
  lost() {
    document.body.classList.add("offline");
    if (state) notice(state.table.texts.reconnecting, true, true);
  },
  final(text) {
    document.body.classList.add("closed");
    for (const b of document.querySelectorAll("button")) b.disabled = true;
    if (text) notice(text, true, true);
  },
});

document.getElementById("leave").addEventListener("click", (event) => {
  if (!state) return;
  if (!leaveArmed) {
    leaveArmed = true;
    event.target.textContent = state.table.texts.leaveSure;
    return;
  }
  connection.send({ t: "leave" });
});
