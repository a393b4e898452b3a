// The hall overview: every match of the record with its live score and a link to its board;
// with the referee's token, each match's control panel too, as a link and a QR code. Over a
// hall's PostgreSQL, every table's matches, each with its table and overlay, controlled at
// the table: no panels.
import { follow } from "./feed.js";
import { GAMES, place } from "./games.js";

const $ = (id) => document.getElementById(id);
const KEY = "referee-token";  // the panel keeps the token under the same name
const LOOPBACK = /^(localhost|127\.[\d.]+|\[::1\])(:\d+)?$/;
let token = localStorage.getItem(KEY) || "";

const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromLink) {
  token = fromLink;
  localStorage.setItem(KEY, token);
  history.replaceState(null, "", location.pathname);
}

function render(item, state) {
  item.querySelector(".game").textContent =
    `${state.match} · ${GAMES[state.discipline] ?? state.discipline} · ${state.distance}`;
  item.querySelectorAll(".side").forEach((side, index) => {
    const player = state.players[index];
    side.classList.toggle("at-table", state.turn === player.surname);
    side.querySelector(".name").textContent = player.surname;
    side.querySelector(".points").textContent = player.points;
  });
  item.querySelector(".status").textContent = state.winner ? `νικητής: ${state.winner}`
    : state.break ? `διάλειμμα: ${state.break}`
    : state.turn ? `στο τραπέζι: ${state.turn}` : "δεν ξεκίνησε";
  item.classList.toggle("finished", state.winner !== null);
  const where = place(state);
  if (where) {
    item.querySelector(".where").textContent = where;
    item.querySelector(".place").hidden = false;
  }
}

async function listMatches() {
  const response = await fetch("/api/matches");
  if (!response.ok) {
    $("note").textContent = `ο κατάλογος δεν φορτώθηκε (${response.status})`;
    return;
  }
  const states = await response.json();
  $("note").textContent = states.length ? "" : "κανένας αγώνας σε αυτό το αρχείο";
  $("matches").replaceChildren(...states.map((state) => {
    const item = $("match").content.firstElementChild.cloneNode(true);
    item.id = `match-${state.match}`;
    item.querySelector(".board").href = `/board/${state.match}`;
    item.querySelector(".overlay-link").href = `/board/${state.match}?overlay=1`;
    render(item, state);
    if (state.winner === null) follow(state.match, (next) => render(item, next), () => {});
    return item;
  }));
}

async function showPanels() {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const response = await fetch("/api/panels", { headers });
  if (response.status === 401) {
    if (token) $("note").textContent = "λάθος κωδικός διαιτητή";
    return;
  }
  if (response.status === 404) {  // the hall's: control at each table
    $("token").hidden = true;
    document.querySelectorAll(".control-note").forEach((note) => { note.hidden = false; });
  }
  if (!response.ok) return;
  $("token").hidden = true;
  $("local").hidden = !LOOPBACK.test(location.host);
  for (const panel of await response.json()) {
    const item = $(`match-${panel.match}`);
    if (!item) continue;
    item.querySelector(".panel-link").href = panel.url;
    const page = new DOMParser().parseFromString(panel.qr, "text/html");
    item.querySelector(".qr").replaceChildren(page.body.firstElementChild);
    item.querySelector(".panel").hidden = false;
  }
}

$("token").addEventListener("submit", (event) => {
  event.preventDefault();
  token = event.target.elements.text.value.trim();
  localStorage.setItem(KEY, token);
  event.target.reset();
  showPanels();
});

await listMatches();
await showPanels();
