// The referee's control panel: each button sends the command its phrase says, through the same
// path as the voice loop; the score comes back over the scoreboard's WebSocket.
import { follow, liveness, matchNumber } from "./feed.js";

const $ = (id) => document.getElementById(id);
const match = matchNumber();
const KEY = "referee-token";
const KEPT = 30; // lines of announcements kept on screen
let token = localStorage.getItem(KEY) || "";
let shown = null;  // the latest state, and the server's clock offset, for the heartbeat

const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
if (fromLink) {
  token = fromLink;
  localStorage.setItem(KEY, token);
  history.replaceState(null, "", location.pathname);
}

// The voice loop's heartbeat, plainly: «φωνή: ακούει», «φωνή: χάθηκε το μικρόφωνο» …
function heard() {
  if (shown === null) return;
  const { kind, text } = liveness(...shown);
  $("heard").className = kind;
  $("heard").textContent = `φωνή: ${text}`;
}

function render(state, offset) {
  shown = [state, offset];
  heard();
  // Only what the rules take now, by the discipline and the moment (the server's `controls`).
  const offered = new Set(state.controls);
  document.querySelectorAll("button[data-kind]").forEach((button) => {
    button.hidden = !offered.has(button.dataset.kind);
  });
  $("off").hidden = !offered.has("ball_off");
  state.players.forEach((player, index) => {
    const side = $(`s${index}`);
    side.classList.toggle("at-table", state.turn === player.surname);
    side.querySelector(".name").textContent = player.surname;
    side.querySelector(".points").textContent = player.points;
  });
  $("turn").textContent = state.winner ? `νικητής: ${state.winner}`
    : state.break ? `διάλειμμα: ${state.break}`
    : state.turn ? `σειρά: ${state.turn} · σειρά πόντων ${state.run}` : "ποιος ξεκινά;";
  const starts = $("starts");
  starts.hidden = !offered.has("starts");
  starts.replaceChildren(...state.players.map((player) => {
    const button = document.createElement("button");
    button.textContent = `ξεκινά ${player.surname}`;
    button.addEventListener("click", () => send("commands", { kind: "starts", player: player.surname }));
    return button;
  }));
}

// One line of the log, newest first; `kind` is the channel, or "refused", "error", "info".
function note(kind, display, text) {
  const line = document.createElement("li");
  line.className = kind;
  line.textContent = display;
  if (text && text !== display) {
    const spoken = document.createElement("small");
    spoken.textContent = text;
    line.append(spoken);
  }
  $("said").prepend(line);
  while ($("said").children.length > KEPT) $("said").lastChild.remove();
}

async function send(path, body) {
  const buttons = document.querySelectorAll("button");
  buttons.forEach((button) => { button.disabled = true; });
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch(`/api/matches/${match}/${path}`,
      { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await response.json();
    if (response.status === 401) {
      $("token").hidden = false;
      note("error", "χρειάζεται ο κωδικός του διαιτητή");
    } else if (!response.ok) {
      const detail = typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail);
      note("error", `${response.status}: ${detail}`);
    } else {
      answer.utterances.forEach((u) => {
        const refused = u.code === "refused" || u.code === "not_understood";
        note(refused ? "refused" : u.channel, u.display, u.text);
      });
    }
  } catch (error) {
    note("error", `ο διακομιστής δεν απαντά (${error.message})`);
  } finally {
    buttons.forEach((button) => { button.disabled = false; });
  }
}

document.querySelectorAll("button[data-kind]").forEach((button) => {
  button.addEventListener("click", () => {
    const command = { kind: button.dataset.kind };
    if (command.kind === "ball_off") {
      command.balls = [...document.querySelectorAll("#off input:checked")].map((box) => box.value);
      document.querySelectorAll("#off input").forEach((box) => { box.checked = false; });
    }
    send("commands", command);
  });
});

$("protocol").href = `/api/matches/${match}/protocol.pdf`;
$("correct").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const inning = Number(form.inning.value);
  send("corrections", form.insert.checked
    ? { inning, insert: true }
    : { inning, player: form.player.value.trim(), points: Number(form.points.value) });
});

$("phrase").addEventListener("submit", (event) => {
  event.preventDefault();
  const field = event.target.elements.text;
  if (field.value.trim()) send("phrases", { text: field.value });
  field.value = "";
});

$("token").addEventListener("submit", (event) => {
  event.preventDefault();
  token = event.target.elements.text.value.trim();
  localStorage.setItem(KEY, token);
  $("token").hidden = true;
  note("info", "ο κωδικός αποθηκεύτηκε· πατήστε ξανά");
});

follow(match, render, (up) => { $("link").className = up ? "up" : "down"; });
setInterval(heard, 1000);
