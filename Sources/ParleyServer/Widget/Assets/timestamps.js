/*
 * Timestamps, as ParleyUI's (docs/ui.md §2): `absolute` puts `timestampFormat` on every message; `relative` shows
 * only the latest message's time relative to now, re-drawn when its label changes, and puts a header with the date
 * and time (`timestampFormat`) before each day's first message.
 */

import { DEFAULTS, clock, config } from "./configuration.js";
import { format, screenLocale, strings } from "./strings.js";
import { el, ui } from "./page.js";

let relativeTimer = null;
let lastDay = null;

/** The messages went: the next one starts a day, and no relative time waits to be redrawn. */
export function resetTimestamps() {
  lastDay = null;
  clock.clearTimeout(relativeTimer);
  relativeTimer = null;
}

/** The date's fields in `config.timeZone` (or the browser's). */
function dateFields(date, browserZone) {
  var options = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric",
    second: "numeric", hourCycle: "h23" };
  if (!browserZone && typeof config.timeZone === "string" && config.timeZone !== "") {
    options.timeZone = config.timeZone;
  }
  var fields = {};
  try {
    new Intl.DateTimeFormat("en-US", options).formatToParts(date).forEach(function (part) {
      if (part.type !== "literal") { fields[part.type] = Number(part.value); }
    });
  } catch (e) {
    if (!browserZone) { return dateFields(date, true); }  // an unknown zone: the browser's
  }
  if (fields.hour === 24) { fields.hour = 0; }
  return fields;
}

function dateName(date, options) {
  if (typeof config.timeZone === "string" && config.timeZone !== "") { options.timeZone = config.timeZone; }
  try { return new Intl.DateTimeFormat(screenLocale(), options).format(date); } catch (e) {
    delete options.timeZone;
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

function pad(number, width) { var text = String(number); while (text.length < width) { text = "0" + text; } return text; }

/**
 * `date` formatted with a Unicode date pattern, the format Swift's DateFormatter reads (`timestampFormat`):
 * y, M and L (1–4 letters), d, E, H, h, k, K, m, s, S, a, and 'quoted text'. Names are in the screen's language.
 */
export function formatDate(date, pattern) {
  var fields = dateFields(date);
  var out = "";
  var i = 0;
  while (i < pattern.length) {
    var c = pattern.charAt(i);
    if (c === "'") {
      var close = pattern.indexOf("'", i + 1);
      if (close === i + 1) { out += "'"; i += 2; continue; }
      if (close < 0) { close = pattern.length; }
      out += pattern.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) { out += c; i += 1; continue; }
    var n = 1;
    while (pattern.charAt(i + n) === c) { n += 1; }
    i += n;
    switch (c) {
      case "y": out += n === 2 ? pad(fields.year % 100, 2) : pad(fields.year, n); break;
      case "M": case "L":
        if (n >= 4) { out += dateName(date, { month: "long" }); }
        else if (n === 3) { out += dateName(date, { month: "short" }); }
        else { out += pad(fields.month, n); }
        break;
      case "d": out += pad(fields.day, n); break;
      case "E": out += dateName(date, { weekday: n >= 4 ? "long" : "short" }); break;
      case "H": out += pad(fields.hour, n); break;
      case "k": out += pad(fields.hour === 0 ? 24 : fields.hour, n); break;
      case "K": out += pad(fields.hour % 12, n); break;
      case "h": out += pad(fields.hour % 12 === 0 ? 12 : fields.hour % 12, n); break;
      case "m": out += pad(fields.minute, n); break;
      case "s": out += pad(fields.second, n); break;
      case "S": out += pad(date.getMilliseconds(), 3).slice(0, n); break;
      case "a": out += fields.hour < 12 ? "AM" : "PM"; break;
      default: out += new Array(n + 1).join(c);  // a letter this formatter does not know stays as written
    }
  }
  return out;
}

function absoluteTime(date) {
  var pattern = typeof config.timestampFormat === "string" && config.timestampFormat !== ""
    ? config.timestampFormat : DEFAULTS.timestampFormat;
  return formatDate(date, pattern);
}

/** ParleyUI's RelativeTime buckets: the label, and the elapsed seconds at which it changes next. */
function relativeBucket(elapsed) {
  var seconds = Math.max(0, elapsed);
  var minute = 60, hour = 3600, day = 86400, month = 30 * day, year = 365 * day;
  function counted(unit, one, many, next) {
    var count = Math.max(1, Math.floor(seconds / unit));
    return { text: count === 1 ? strings[one] : format(strings[many], count), next: next(count) };
  }
  if (seconds < 10) { return { text: strings.parley_time_now, next: 10 }; }
  if (seconds < minute) { return { text: strings.parley_time_moments, next: minute }; }
  if (seconds < hour) {
    return counted(minute, "parley_time_minute", "parley_time_minutes", function (n) { return (n + 1) * minute; });
  }
  if (seconds < day) {
    return counted(hour, "parley_time_hour", "parley_time_hours", function (n) { return (n + 1) * hour; });
  }
  if (seconds < month) {
    return counted(day, "parley_time_day", "parley_time_days", function (n) { return (n + 1) * day; });
  }
  if (seconds < year) {
    return counted(month, "parley_time_month", "parley_time_months", function (n) {
      return Math.min((n + 1) * month, year);
    });
  }
  return counted(year, "parley_time_year", "parley_time_years", function (n) { return (n + 1) * year; });
}

/** Shows only the latest message's time, then waits (on the clock) until its label changes. */
function refreshRelative() {
  clock.clearTimeout(relativeTimer);
  relativeTimer = null;
  var stamps = ui.messages.querySelectorAll(".parley-time");
  for (var i = 0; i < stamps.length; i++) {
    var latest = i === stamps.length - 1;
    stamps[i].hidden = !latest;
    if (latest) {
      var elapsed = (clock.now() - Number(stamps[i].getAttribute("data-time"))) / 1000;
      var bucket = relativeBucket(elapsed);
      stamps[i].textContent = bucket.text;
      relativeTimer = clock.setTimeout(refreshRelative, Math.max(1, (bucket.next - elapsed) * 1000));
    }
  }
}

export function dayOf(date) {
  var fields = dateFields(date);
  return fields.year + "-" + fields.month + "-" + fields.day;
}

export function stamp(row, date) {
  if (!config.enableTimestamp) { return; }
  var node = el("div", "parley-time");
  node.setAttribute("data-time", String(date.getTime()));
  node.setAttribute("data-mode", config.timestampMode === "relative" ? "relative" : "absolute");
  if (config.timestampMode === "relative") {
    var day = dayOf(date);
    if (day !== lastDay) {
      lastDay = day;
      var header = el("div", "parley-day", absoluteTime(date));
      header.setAttribute("data-time", String(date.getTime()));
      ui.messages.insertBefore(header, row);
    }
    row.appendChild(node);
    refreshRelative();
  } else {
    node.textContent = absoluteTime(date);
    row.appendChild(node);
  }
}
