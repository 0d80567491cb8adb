// The state frame drawn into the page. Everything shown comes from the server: texts, labels,
// which cards are playable, and the key each button sends back (the chats' button grammar).

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

function button(item, press, extra = "") {
  const b = el("button", { type: "button", textContent: item.label });
  b.dataset.key = item.key;
  b.className = (item.color ? `color ${item.color} ${extra}` : extra).trim();
  b.addEventListener("click", () => press(item.key));
  return b;
}

function seats(table, me) {
  return table.seats.map((seat) => {
    const li = el("li");
    li.dataset.player = seat.id;
    li.classList.toggle("current", seat.current);
    li.classList.toggle("me", seat.id === me);
    const name = seat.id === me ? `${seat.name} ${table.texts.you}` : seat.name;
    li.append(el("span", { className: "name", textContent: (seat.current ? "▶ " : "") + name }));
    if (table.top !== undefined) {
      li.append(" · ", el("span", { className: "count", textContent: seat.cardsText }));
      li.append(" · ", el("span", { className: "score", textContent: seat.scoreText }));
    }
    if (seat.uno) li.append(" ", el("span", { className: "uno", textContent: table.texts.uno }));
    return li;
  });
}

function hand(state, press) {
  const h = state.hand || {};
  const cards = (h.cards || []).map((card) => {
    const b = el("button", { type: "button", className: `card c-${card.pic}`, title: card.label });
    b.setAttribute("aria-label", card.label);
    b.dataset.card = card.pic;
    if (card.key) {
      b.classList.add("playable");
      b.dataset.key = card.key;
      b.addEventListener("click", () => press(card.key));
    } else {
      b.disabled = true;
    }
    return b;
  });
  $("hand").replaceChildren(...cards);
  $("actions").replaceChildren(...(h.actions || []).map((a) => button(a, press)));
  $("status").textContent = (h.status || []).join("\n");
  const step = h.step;
  $("step").hidden = !step;
  if (step) {
    $("step-title").textContent = step.title;
    const options = step.options.map((o) => button(o, press));
    options.push(button(step.back, press, "back"));
    $("step-options").replaceChildren(...options);
  }
}

export function render(state, press) {
  const table = state.table;
  document.documentElement.lang = state.lang;
  document.body.classList.toggle("colorblind", state.colorblind);
  document.body.dataset.version = String(table.version);
  document.body.dataset.status = table.status;
  const dealt = table.top !== undefined;
  $("seats").replaceChildren(...seats(table, state.me));
  $("lobby").hidden = dealt;
  $("lobby").textContent = table.lobby || "";
  for (const id of ["center", "top-text", "log-box", "turn", "direction"]) $(id).hidden = !dealt;
  $("leave").textContent = table.texts.leave;
  const seated = state.hand && (table.status === "lobby" || (state.hand.cards || []).length > 0);
  $("leave").hidden = !["lobby", "running"].includes(table.status) || !seated;
  if (dealt) {
    $("title").textContent = table.title;
    $("direction").textContent = table.directionText;
    $("top").className = `card c-${table.top}`;
    $("top").title = table.topText;
    $("top-text").textContent = table.topText;
    $("pile-count").textContent = String(table.drawSize);
    const color = $("color");
    color.className = `chip ${table.color || ""}`;
    color.textContent = table.colorText || "";
    color.hidden = !table.color;
    $("turn").textContent = table.turn;
    $("log-title").textContent = table.texts.log;
    $("log").replaceChildren(...table.log.map((line) => el("li", { textContent: line })));
  } else {
    $("title").textContent = "";
  }
  $("result").hidden = !table.result;
  $("result").textContent = table.result || "";
  $("after").hidden = !table.rematch;
  $("after").replaceChildren(...(table.rematch ? [button(table.rematch, press, "rematch")] : []));
  hand(state, press);
  $("app").setAttribute("aria-busy", "false");
}

let noticeTimer = 0;

export function notice(text, error, sticky = false) {
  const box = $("notice");
  box.textContent = text;
  box.className = error ? "error" : "";
  box.hidden = !text;
  clearTimeout(noticeTimer);
  if (text && !sticky) noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}
