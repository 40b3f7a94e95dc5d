// The participant's page: shows the server's view of the session and sends
// the participant's actions. Every text goes in through textContent, never
// as markup. The token is read from this page's address and sent only to
// this server.
"use strict";

const token = location.pathname.split("/")[2] || "";
const api = (what) => `/api/p/${encodeURIComponent(token)}/${what}`;
const $ = (id) => document.getElementById(id);
let view = null;
let busy = false;
let version = 0;
const BUTTONS = ["agree", "run", "end-round", "submit", "refuse"];

// the task's prompt is the agents' own and asks for a fenced block: the page adds it
const LABELS = {
  program: "Your program (just the code: the page adds the fenced block)",
  output: "The exact output (just the text: the page adds the fenced block)",
  proof: "Your proof, PROOF … END (the page adds the fenced block)",
};

function progressText(v) {
  const parts = [];
  if (v.milestones) parts.push(`milestones done: ${v.milestones.done} of ${v.milestones.of}`);
  if (v.round) parts.push(`round ${v.round} of ${v.rounds}`);
  const b = v.budget || {};
  if (v.phase === "explore" && b.round_used !== undefined) {
    parts.push(`probes left this round: ${b.per_round - b.round_used} of ${b.per_round}`);
  }
  if (b.total_max) parts.push(`probes left in all: ${b.total_max - b.total_used} of ${b.total_max}`);
  else if (b.total_used !== undefined) parts.push(`probes used: ${b.total_used}`);
  return parts.join(" · ");
}

function title(v) {
  switch (v.phase) {
    case "explore": return `Exploration round ${v.round} of ${v.rounds}`;
    case "reflect": return `Round ${v.round} of ${v.rounds}: your hypotheses`;
    case "rules": return `Milestone ${v.milestone}: rule report`;
    case "answer": return `Milestone ${v.milestone}: task ${v.task.number} of ${v.task.of}`;
    case "consent": return "Before you start";
    case "finished": return "The session is complete. Thank you!";
    case "failed": return "The session stopped";
    default: return "Working…";
  }
}

function renderHistory(v) {
  const list = $("history");
  list.replaceChildren();
  const probes = (v.probes || []).slice().reverse();
  for (const p of probes) {
    const item = document.createElement("li");
    item.className = p.counted ? "probe" : "probe uncounted";
    const head = document.createElement("div");
    head.textContent = `Round ${p.round}, probe ${p.n}${p.counted ? "" : " (not counted)"}`;
    const code = document.createElement("pre");
    code.className = "probe-text";
    code.textContent = p.text;
    const out = document.createElement("pre");
    out.className = "feedback";
    out.textContent = p.feedback;
    item.append(head, code, out);
    list.append(item);
  }
}

function render(v) {
  const phaseChanged = !view || view.key !== v.key;
  view = v;
  version += 1;
  document.body.dataset.phase = v.phase;
  document.body.dataset.key = v.key || "";
  document.body.dataset.version = String(version);
  // what the page shows, also as attributes (for assistive tools and scripted checks)
  document.body.dataset.round = v.round || "";
  document.body.dataset.roundUsed = (v.budget && v.budget.round_used) ?? "";
  document.body.dataset.task = (v.task && v.task.id) || "";
  $("progress").textContent = progressText(v);
  $("stage-title").textContent = title(v);
  const prompt = v.phase === "failed" ? (v.message || "") : (v.prompt || "");
  $("prompt").textContent = prompt;
  $("prompt").hidden = !prompt;
  const asking = ["explore", "reflect", "rules", "answer"].includes(v.phase);
  $("task-form").hidden = !asking;
  $("agree").hidden = v.phase !== "consent";
  $("briefing-box").hidden = v.phase === "consent";
  $("run").hidden = $("end-round").hidden = v.phase !== "explore";
  $("submit").hidden = !["reflect", "rules", "answer"].includes(v.phase);
  $("refuse").hidden = !(v.phase === "answer" && v.task && v.task.refusable);
  const entry = $("entry");
  if (phaseChanged) {
    if (v.phase === "rules") entry.value = (v.rule_ids || []).map((id) => `${id}: UNKNOWN`).join("\n");
    else entry.value = "";
  }
  $("entry-label").textContent =
    v.phase === "explore" ? `Your probe (a ${v.language === "alienlogic" ? "proof" : "program"})`
    : v.phase === "answer" ? LABELS[v.task.kind] || "Your answer"
    : v.phase === "rules" ? "One line per rule: ID: EXPRESSION, IDENTITY or UNKNOWN"
    : "Your hypotheses";
  renderHistory(v);
  if (v.phase === "working" || v.phase === "starting") setTimeout(poll, 400);
}

function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
}

async function getJSON(what) {
  const response = await fetch(api(what), { cache: "no-store", credentials: "omit" });
  const body = await response.json().catch(() => ({ error: "unreadable response" }));
  return { status: response.status, body };
}

async function poll() {
  const { status, body } = await getJSON("state");
  if (status === 200) render(body);
  else if (status === 429) setTimeout(poll, 2000);
  else notice(body.error || `error ${status}`);
}

async function loadBriefing() {
  const { status, body } = await getJSON("briefing");
  if (status === 200) $("briefing").textContent = body.briefing;
  else setTimeout(loadBriefing, 1000);
}

async function act(action, refuse = false) {
  if (busy || !view) return;
  busy = true;
  notice("");
  for (const id of BUTTONS) $(id).disabled = true;
  try {
    const response = await fetch(api("act"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      credentials: "omit",
      body: JSON.stringify({ action, key: view.key, text: $("entry").value, refuse }),
    });
    const body = await response.json().catch(() => ({ error: "unreadable response" }));
    if (response.status === 200) render(body);
    else {
      notice(body.error || `error ${response.status}`);
      if (response.status === 409) await poll();
    }
  } catch (error) {
    notice("The server cannot be reached; your last action may not have arrived. Reloading…");
    setTimeout(poll, 2000);
  } finally {
    busy = false;
    for (const id of BUTTONS) $(id).disabled = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("agree").addEventListener("click", () => act("consent"));
  $("run").addEventListener("click", () => act("probe"));
  $("end-round").addEventListener("click", () => act("end-round"));
  $("submit").addEventListener("click", () => act("answer"));
  $("refuse").addEventListener("click", () => act("answer", true));
  loadBriefing();
  poll();
});
