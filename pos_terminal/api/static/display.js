"use strict";
// The texts and the token's query string come in the page, as data (never as script)
const DATA = JSON.parse(document.getElementById("display-data").textContent);
const TEXT = DATA.text;
const QUERY = DATA.query;
const screen = document.getElementById("screen");
// The sale on screen, by whatever ties its events together: the counter's sale number (a sale
// made on the cashier's screen has no sale_ref, and no app_trans_id until it is recorded), the
// POS's sale_ref, the payment's app_trans_id. qr: a gateway QR is on screen until the order is
// paid, cancelled or expired (its progress events do not replace it).
let current = null;

function vnd(amount) {
  return amount.toLocaleString("vi-VN").replace(/,/g, ".") + " \u20ab";
}

let idle = null;  // back to "Welcome" a while after a result
const IDLE_MS = 20000;
// results: the sale is over, so "Amount to pay" no longer applies (the amount stays, unlabelled)
const RESULTS = ["paid", "not_paid", "late", "returned"];
// where the customer still has something to pay
const TO_PAY = ["awaiting", "checking", "qr", "not_paid", "unknown", "underpaid"];

// `age`: how long ago the event happened (a replayed one, when the page connects)
function show(state, key, amount, age) {
  clearTimeout(idle);
  if (RESULTS.includes(state)) {
    const left = IDLE_MS - (age || 0);
    if (left <= 0) { current = null; state = "idle"; key = "welcome"; amount = null; }
    else idle = setTimeout(() => { current = null; show("idle", "welcome", null); }, left);
  }
  screen.dataset.state = state;
  document.getElementById("headline-vi").textContent = TEXT.vi[key];
  document.getElementById("headline-en").textContent = TEXT.en[key];
  const shown = amount !== undefined && amount !== null;
  const label = shown && TO_PAY.includes(state) ? TEXT.vi.amount + " / " + TEXT.en.amount : "";
  document.getElementById("amount-label").textContent = label;
  document.getElementById("amount").textContent = shown ? vnd(amount) : "";
  document.getElementById("part").textContent = "";
}

// a shop QR paid in part (a bank transfer of less than asked): never paid; what arrived and
// what is missing, in both languages
function underpaid(e) {
  show("underpaid", "underpaid", e.amount);
  const line = (lang) => TEXT[lang].arrived + ": " + vnd(e.amount_paid) + " \u00b7 " +
    TEXT[lang].missing + ": " + vnd(e.amount_missing);
  document.getElementById("part").textContent = line("vi") + "\n" + line("en");
}

// a settled payment by the one outcome rule: only "paid" is PAID; a late charge and money
// returned say so; anything else is not known yet
function settled(outcome) {
  if (outcome === "paid" || outcome === "not_paid" || outcome === "late" || outcome === "returned") return outcome;
  return "unknown";
}

function known(value) {
  return value !== undefined && value !== null && value !== "";
}

function starts(e) {
  return e.type === "awaiting_code" || e.type === "payment_started" || e.type === "gateway_shown";
}

// whether event e belongs to the sale on screen (events of other sales, e.g. an old payment
// settled by the background reconciliation, never change the screen)
function same(e) {
  if (current === null) return false;
  if (known(e.app_trans_id) && known(current.app_trans_id)) return e.app_trans_id === current.app_trans_id;
  if (known(e.sale_ref) || known(current.sale_ref)) return e.sale_ref === current.sale_ref;
  if (known(e.sale) && known(current.sale)) return e.sale === current.sale;
  // no key on either side: the cashier's sale waiting for a code, and its cancellation
  return !known(e.sale) && !known(e.app_trans_id) && !known(current.app_trans_id);
}

function follow(e) {
  if (starts(e)) {
    current = {sale: known(e.sale) ? e.sale : null, sale_ref: known(e.sale_ref) ? e.sale_ref : null,
               app_trans_id: known(e.app_trans_id) ? e.app_trans_id : null,
               qr: e.type === "gateway_shown"};
    return true;
  }
  if (!same(e)) return false;
  if (known(e.app_trans_id) && !known(current.app_trans_id)) current.app_trans_id = e.app_trans_id;
  if (known(e.sale) && !known(current.sale)) current.sale = e.sale;
  return true;
}

function onEvent(e) {
  if (!follow(e)) return;
  if (known(e.amount_paid) && e.outcome !== "paid" && e.outcome !== "not_paid") {
    current.qr = false;
    underpaid(e);
    return;
  }
  switch (e.type) {
    case "awaiting_code": show("awaiting", "scan", e.amount); break;
    case "payment_started": show("checking", "checking", e.amount); break;
    case "payment_progress":
      if (!current.qr) show("checking", "checking", e.amount);
      break;
    case "gateway_shown":
      document.getElementById("qr").src = "/display/qr/" + encodeURIComponent(e.app_trans_id) + ".svg" + QUERY;
      show("qr", "qr", e.amount); break;
    case "payment_settled": {
      current.qr = false;
      const result = settled(e.outcome);
      show(result, result, e.amount, e.age_ms); break;
    }
    case "payment_unresolved": current.qr = false; show("unknown", "unknown", e.amount); break;
    case "payment_error":
      current.qr = false;
      show(e.app_trans_id ? "unknown" : "not_paid", e.app_trans_id ? "unknown" : "not_paid", e.amount); break;
    case "sale_cancelled": current = null; show("idle", "welcome", null); break;
  }
}

show("idle", "welcome", null);
const source = new EventSource("/display/events" + QUERY);
// Connected (again): the stream replays the sale under way first, so start from "Welcome".
source.addEventListener("open", () => { current = null; show("idle", "welcome", null); });
// The counter's stream is gone (the server stopped, the network is down): say so, never keep
// showing a sale or "Welcome" as if all were well. The browser reconnects by itself.
source.addEventListener("error", () => {
  if (source.readyState !== EventSource.OPEN) show("offline", "offline", null);
});
for (const type of ["awaiting_code", "payment_started", "payment_progress", "gateway_shown",
                    "payment_settled", "payment_unresolved", "payment_error", "sale_cancelled"]) {
  source.addEventListener(type, (m) => onEvent(JSON.parse(m.data)));
}
