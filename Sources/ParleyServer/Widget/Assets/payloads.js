/*
 * Drawing a payload (docs/protocol.md §5): text, postback, attachment, location, card, table, form, tableForm,
 * editForm, formSubmission, textStream, error, raw and unknown types, with header and footer texts, actions,
 * global actions and the footer form; and what an action does when it is used. Every node is made with
 * createElement and textContent: nothing from the server is ever parsed as HTML.
 */

import { config, isObject, safeURL } from "./configuration.js";
import { strings } from "./strings.js";
import { el, notice, ui } from "./page.js";
import { sendPayload, showUserMessage } from "./conversation.js";
import { post, reportError } from "./bridge.js";

function bubble(text, className) {
  var node = el("div", "parley-bubble" + (className ? " " + className : ""), text);
  return node;
}

/** Renders one payload's content (without header, footer or actions) into a new element. */
function renderContent(payload, context) {
  var type = payload.type;
  var node;
  switch (type) {
    case "text":
      node = bubble(payload.text);
      if (payload.channelExtensions && payload.channelExtensions.displayType === "stars") {
        node.classList.add("parley-stars-text");
      }
      return node;
    case "postback":
      return bubble(typeof payload.text === "string" ? payload.text : JSON.stringify(payload.postback));
    case "attachment":
      return renderAttachment(payload.attachment || {});
    case "location":
      return renderLocation(payload.location || {});
    case "card":
      return renderCards(payload, context);
    case "table":
      return renderTable(payload, context, false);
    case "tableForm":
      return renderTable(payload, context, true);
    case "form":
      return renderForms(payload, context);
    case "editForm":
      return renderEditForm(payload, context);
    case "formSubmission":
      return bubble(Object.keys(payload.submittedFields || {}).map(function (key) {
        return key + ": " + JSON.stringify(payload.submittedFields[key]);
      }).join("\n"));
    case "textStream":
      return bubble(payload.aggregateText !== undefined ? payload.aggregateText : payload.text);
    case "error":
      node = bubble(payload.errorMessage, "parley-error");
      node.setAttribute("role", "alert");
      return node;
    case "raw":
      return el("pre", "parley-raw", JSON.stringify(payload.payload, null, 2));
    default:
      node = el("pre", "parley-raw parley-unknown", JSON.stringify(payload, null, 2));
      return node;
  }
}

function renderAttachment(attachment) {
  var box = el("div", "parley-bubble parley-media");
  var url = safeURL(attachment.url, attachment.type === "image" ? ["blob:", "data:"] : ["blob:"]);
  var title = attachment.title || attachment.filename || "";
  if (!url) {
    box.textContent = title || strings.odais_check_url;
    return box;
  }
  var kind = attachment.type;
  var media;
  if (kind === "image") {
    media = el("img");
    media.alt = title;
    media.src = url;
  } else if (kind === "video" || kind === "audio") {
    media = el(kind);
    media.controls = true;
    media.src = url;
  } else {
    media = el("a", "parley-file-link", title || url);
    media.href = url;
    media.target = "_blank";
    media.rel = "noopener noreferrer";
  }
  media.setAttribute("data-attachment-type", String(kind));
  box.appendChild(media);
  if (title && kind !== "file") { box.appendChild(el("div", "parley-footer-text", title)); }
  return box;
}

function renderLocation(location) {
  var box = el("div", "parley-bubble parley-location");
  var text = (location.title ? location.title + "\n" : "") +
    Number(location.latitude).toFixed(5) + ", " + Number(location.longitude).toFixed(5);
  var url = safeURL(location.url);
  if (url) {
    var link = el("a", null, text);
    link.href = url;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    box.appendChild(link);
  } else {
    box.textContent = text;
  }
  return box;
}

function renderCards(payload, context) {
  var layout = payload.layout === "vertical" ? "vertical" : "horizontal";
  var box = el("div", "parley-cards parley-cards-" + layout);
  (payload.cards || []).forEach(function (card) {
    var node = el("div", "parley-card");
    var image = safeURL(card.imageUrl);
    if (image) { var img = el("img"); img.src = image; img.alt = card.title || ""; node.appendChild(img); }
    var title = el("div", "parley-card-title");
    var url = safeURL(card.url);
    if (url) {
      var link = el("a", null, card.title);
      link.href = url; link.target = "_blank"; link.rel = "noopener noreferrer";
      title.appendChild(link);
    } else {
      title.textContent = card.title || "";
    }
    node.appendChild(title);
    if (card.description) { node.appendChild(el("div", "parley-card-description", card.description)); }
    if (card.actions && card.actions.length) { node.appendChild(renderActions(card.actions, context, "parley-actions")); }
    box.appendChild(node);
  });
  return box;
}

function fieldText(field) {
  var value = field.value;
  if (value === undefined || value === null) { return ""; }
  var text = typeof value === "string" ? value : JSON.stringify(value);
  if (typeof field.truncateAt === "number" && text.length > field.truncateAt) {
    text = text.slice(0, field.truncateAt) + "…";
  }
  return text;
}

/** A read-only field: text, link, media or action. */
function renderReadOnlyField(field, context) {
  var node = el("span", "parley-field-value");
  switch (field.displayType) {
    case "link": {
      var url = safeURL(field.value);
      if (url) {
        var link = el("a", null, field.linkLabel || field.value);
        link.href = url; link.target = "_blank"; link.rel = "noopener noreferrer";
        node.appendChild(link);
      } else {
        node.textContent = fieldText(field);
      }
      return node;
    }
    case "media": {
      var src = safeURL(field.value);
      if (src && field.mediaType === "image") {
        var img = el("img"); img.src = src; img.alt = field.label || ""; img.style.maxWidth = "100%";
        node.appendChild(img);
      } else if (src && (field.mediaType === "video" || field.mediaType === "audio")) {
        var media = el(field.mediaType); media.controls = true; media.src = src; node.appendChild(media);
      } else {
        node.textContent = fieldText(field);
      }
      return node;
    }
    case "action":
      return field.action ? renderAction(field.action, context) : node;
    default:
      node.textContent = fieldText(field);
      return node;
  }
}

function formFields(form) {
  if (form.formRows && form.formRows.length) {
    var fields = [];
    form.formRows.forEach(function (row) {
      (row.columns || []).forEach(function (column) { fields = fields.concat(column.fields || []); });
    });
    return fields;
  }
  return form.fields || [];
}

function renderReadOnlyForm(form, context, columns) {
  var box = el("div", "parley-form");
  if (form.title) { box.appendChild(el("div", "parley-form-title", form.title)); }
  var grid = el("div", "parley-form-grid");
  grid.style.gridTemplateColumns = "repeat(" + Math.max(1, Math.min(2, columns || 1)) + ", 1fr)";
  formFields(form).forEach(function (field) {
    var cell = el("div", "parley-field");
    if (field.label && field.displayType !== "action") { cell.appendChild(el("div", "parley-field-label", field.label)); }
    cell.appendChild(renderReadOnlyField(field, context));
    grid.appendChild(cell);
  });
  box.appendChild(grid);
  if (form.actions && form.actions.length) { box.appendChild(renderActions(form.actions, context, "parley-actions")); }
  return box;
}

function renderForms(payload, context) {
  var box = el("div", "parley-forms");
  (payload.forms || []).forEach(function (form) {
    box.appendChild(renderReadOnlyForm(form, context, payload.formColumns));
  });
  appendPagination(box, payload.paginationInfo);
  return box;
}

function appendPagination(box, info) {
  if (info && typeof info.status === "string" && info.totalCount > info.rangeSize) {
    box.appendChild(el("div", "parley-pagination", info.status));
  }
}

function renderTable(payload, context, withForms) {
  var box = el("div", "parley-table-box");
  if (payload.tableTitle) { box.appendChild(el("div", "parley-table-title", payload.tableTitle)); }
  var table = el("table", "parley-table");
  var head = el("tr");
  (payload.headings || []).forEach(function (heading) {
    var th = el("th", null, heading.label);
    if (heading.alignment) { th.style.textAlign = heading.alignment; }
    if (typeof heading.width === "number") { th.style.width = heading.width + "%"; }
    head.appendChild(th);
  });
  if (withForms) { head.appendChild(el("th")); }
  var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
  var body = el("tbody");
  (payload.rows || []).forEach(function (row, index) {
    var tr = el("tr");
    (row.fields || []).forEach(function (field) {
      var td = el("td");
      if (field.alignment) { td.style.textAlign = field.alignment; }
      td.appendChild(renderReadOnlyField(field, context));
      tr.appendChild(td);
    });
    body.appendChild(tr);
    if (withForms) {
      var form = (payload.forms || [])[index];
      var td = el("td");
      var detail = el("tr", "parley-table-form");
      var detailCell = el("td");
      detailCell.colSpan = (payload.headings || []).length + 1;
      if (form) { detailCell.appendChild(renderReadOnlyForm(form, context, payload.formColumns)); }
      detail.appendChild(detailCell);
      detail.hidden = payload.disclosedFormIndex !== index;
      var toggle = el("button", "parley-action parley-show-form", payload.showFormButtonLabel || strings.parley_show_form);
      toggle.type = "button";
      toggle.addEventListener("click", function () { detail.hidden = !detail.hidden; });
      td.appendChild(toggle);
      tr.appendChild(td);
      body.appendChild(detail);
    }
    if (row.selectAction) {
      tr.style.cursor = "pointer";
      tr.title = row.selectAction.label || "";
      tr.addEventListener("click", function (event) {
        if (event.target && event.target.tagName === "BUTTON") { return; }
        performAction(row.selectAction, context, null);
      });
    }
  });
  table.appendChild(body);
  box.appendChild(table);
  appendPagination(box, payload.paginationInfo);
  return box;
}

/** An edit form: inputs for every editable field; submitForm actions send a formSubmission. */
function renderEditForm(payload, context) {
  var form = el("form", "parley-form parley-edit-form");
  form.noValidate = true;
  if (payload.title) { form.appendChild(el("div", "parley-form-title", payload.title)); }
  if (payload.errorMessage) { form.appendChild(el("div", "parley-form-error", payload.errorMessage)); }
  var grid = el("div", "parley-form-grid");
  grid.style.gridTemplateColumns = payload.formRows && payload.formRows.length ? "1fr"
    : "repeat(" + Math.max(1, Math.min(2, payload.formColumns || 1)) + ", 1fr)";
  var readers = {};
  formFields(payload).forEach(function (field) {
    var cell = el("div", "parley-field");
    cell.setAttribute("data-display-type", String(field.displayType));
    if (field.label) { cell.appendChild(el("label", "parley-field-label", field.label)); }
    var reader = renderEditableField(field, cell, context, function () {
      if (field.autoSubmit) { submitForm(readers, null, field.id, context); }
    });
    if (reader && typeof field.id === "string") { readers[field.id] = reader; }
    if (field.serverErrorMessage) { cell.appendChild(el("div", "parley-field-error", field.serverErrorMessage)); }
    grid.appendChild(cell);
  });
  form.appendChild(grid);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  context.formReaders = readers;
  return form;
}

/** Adds the input for `field` to `cell`; returns a function that reads its value. */
function renderEditableField(field, cell, context, changed) {
  var input;
  switch (field.displayType) {
    case "textInput":
      input = field.multiLine ? el("textarea") : el("input");
      if (!field.multiLine) {
        var styles = ["text", "tel", "url", "email", "password"];
        input.type = styles.indexOf(field.inputStyle) >= 0 ? field.inputStyle : "text";
      }
      if (typeof field.placeholder === "string") { input.placeholder = field.placeholder; }
      if (typeof field.maxLength === "number") { input.maxLength = field.maxLength; }
      if (typeof field.defaultValue === "string") { input.value = field.defaultValue; }
      input.name = String(field.id);
      input.addEventListener("change", changed);
      cell.appendChild(input);
      return function () { return input.value; };
    case "numberInput":
      input = el("input"); input.type = "number"; input.step = "any"; input.name = String(field.id);
      if (typeof field.minValue === "number") { input.min = String(field.minValue); }
      if (typeof field.maxValue === "number") { input.max = String(field.maxValue); }
      if (typeof field.defaultValue === "number") { input.value = String(field.defaultValue); }
      input.addEventListener("change", changed);
      cell.appendChild(input);
      return function () { return input.value === "" ? "" : Number(input.value); };
    case "datePicker":
    case "timePicker":
      input = el("input"); input.type = field.displayType === "datePicker" ? "date" : "time"; input.name = String(field.id);
      var min = field.displayType === "datePicker" ? field.minDate : field.minTime;
      var max = field.displayType === "datePicker" ? field.maxDate : field.maxTime;
      if (typeof min === "string") { input.min = min; }
      if (typeof max === "string") { input.max = max; }
      if (typeof field.defaultValue === "string") { input.value = field.defaultValue; }
      input.addEventListener("change", changed);
      cell.appendChild(input);
      return function () { return input.value; };
    case "toggle":
      input = el("input"); input.type = "checkbox"; input.name = String(field.id);
      input.checked = field.defaultValue !== undefined && JSON.stringify(field.defaultValue) === JSON.stringify(field.valueOn);
      var toggleLabel = el("label", "parley-toggle");
      toggleLabel.appendChild(input);
      var caption = el("span", null, input.checked ? (field.labelOn || "") : (field.labelOff || ""));
      toggleLabel.appendChild(caption);
      input.addEventListener("change", function () {
        caption.textContent = input.checked ? (field.labelOn || "") : (field.labelOff || "");
        changed();
      });
      cell.appendChild(toggleLabel);
      return function () { return input.checked ? field.valueOn : field.valueOff; };
    case "singleSelect":
    case "multiSelect": {
      var multiple = field.displayType === "multiSelect";
      var options = field.options || [];
      var defaults = multiple ? (Array.isArray(field.defaultValue) ? field.defaultValue : [])
        : (field.defaultValue === undefined ? [] : [field.defaultValue]);
      var valueOf = function (option) { return option.value === undefined ? option.label : option.value; };
      var isDefault = function (option) {
        return defaults.some(function (value) { return JSON.stringify(value) === JSON.stringify(valueOf(option)); });
      };
      if (field.layoutStyle === "radioGroup" || field.layoutStyle === "checkboxes") {
        var group = el("div", "parley-choice-group");
        var boxes = [];
        options.forEach(function (option, index) {
          var label = el("label", "parley-choice");
          var box = el("input");
          box.type = multiple ? "checkbox" : "radio";
          box.name = String(field.id);
          box.value = String(index);
          box.checked = isDefault(option);
          box.addEventListener("change", changed);
          label.appendChild(box);
          label.appendChild(el("span", null, option.label));
          group.appendChild(label);
          boxes.push(box);
        });
        cell.appendChild(group);
        return function () {
          var chosen = boxes.filter(function (b) { return b.checked; }).map(function (b) { return valueOf(options[Number(b.value)]); });
          return multiple ? chosen : (chosen.length ? chosen[0] : "");
        };
      }
      input = el("select"); input.name = String(field.id); input.multiple = multiple;
      if (!multiple) { input.appendChild(el("option", null, "")); }
      options.forEach(function (option, index) {
        var item = el("option", null, option.label);
        item.value = String(index);
        item.selected = isDefault(option);
        input.appendChild(item);
      });
      input.addEventListener("change", changed);
      cell.appendChild(input);
      return function () {
        var chosen = Array.prototype.filter.call(input.options, function (o) { return o.selected && o.value !== ""; })
          .map(function (o) { return valueOf(options[Number(o.value)]); });
        return multiple ? chosen : (chosen.length ? chosen[0] : "");
      };
    }
    default:
      cell.appendChild(renderReadOnlyField(field, context));
      return null;
  }
}

function submitForm(readers, action, partialField, context) {
  var submitted = {};
  Object.keys(readers).forEach(function (id) {
    var value = readers[id]();
    if (value === "" || (Array.isArray(value) && value.length === 0) || value === undefined) { return; }
    submitted[id] = value;
  });
  var payload = { type: "formSubmission", submittedFields: submitted };
  if (partialField) {
    payload.partialSubmitField = partialField;
  } else if (action && action.postback !== undefined) {
    payload.postback = action.postback;
  }
  if (!partialField) { showUserMessage(payload); }
  sendPayload(payload, true, Boolean(partialField));
}

function renderActions(actions, context, className) {
  var vertical = config.actionsLayout === "vertical";
  var box = el("div", className + (vertical ? " parley-vertical" : ""));
  actions.forEach(function (action) {
    var node = renderAction(action, context);
    if (node) { box.appendChild(node); }
  });
  return box;
}

/** One action as a button or link. Actions without a label or image are skipped (protocol §6.1). */
function renderAction(action, context) {
  if (!isObject(action)) { return null; }
  var label = typeof action.label === "string" ? action.label : "";
  var image = safeURL(action.imageUrl);
  if (label === "" && !image) { return null; }
  var node;
  var link = null;
  if (action.type === "url") { link = safeURL(action.url); }
  if (action.type === "call" && typeof action.phoneNumber === "string") {
    link = "tel:" + action.phoneNumber.replace(/[^0-9+*#]/g, "");
  }
  if (link) {
    node = el("a", "parley-action");
    node.href = link;
    if (action.type === "url") { node.target = "_blank"; node.rel = "noopener noreferrer"; }
  } else {
    node = el("button", "parley-action");
    node.type = "button";
    node.addEventListener("click", function () { performAction(action, context, node); });
  }
  node.setAttribute("data-action-type", String(action.type));
  if (typeof action.tooltip === "string") { node.title = action.tooltip; }
  if (image) { var img = el("img"); img.src = image; img.alt = label; node.appendChild(img); }
  if (label) { node.appendChild(el("span", null, label)); }
  if (action.style === "primary" || action.type === "submitForm") { node.classList.add("parley-primary"); }
  if (action.style === "danger") { node.classList.add("parley-danger"); }
  return node;
}

function performAction(action, context, node) {
  switch (action.type) {
    case "postback": {
      var payload = { type: "postback", postback: action.postback };
      if (typeof action.label === "string") { payload.text = action.label; }
      showUserMessage({ type: "text", text: action.label || "" });
      sendPayload(payload, true);
      if (node && config.disablePastActions !== "none") { node.disabled = true; }
      return;
    }
    case "submitForm":
      submitForm(context.formReaders || {}, action, null, context);
      return;
    case "location":
      shareLocation();
      return;
    case "share":
      shareText(context.text || "");
      return;
    case "webview": {
      var url = safeURL(action.url);
      if (url) { window.open(url, "_blank", "noopener"); }
      return;
    }
    case "client":
      if (action.actionType === "copyMessageText") { copyText(context.text || ""); }
      post({ event: "clientAction", action: action });
      return;
    case "popup":
      if (isObject(action.popupContent)) { showPopup(action.popupContent); }
      return;
    default:
      post({ event: "clientAction", action: action });
  }
}

function shareLocation() {
  if (!navigator.geolocation) { notice(strings.parley_location_error); return; }
  navigator.geolocation.getCurrentPosition(function (position) {
    var payload = {
      type: "location",
      location: { latitude: position.coords.latitude, longitude: position.coords.longitude }
    };
    showUserMessage(payload);
    sendPayload(payload, true);
  }, function (error) {
    notice(strings.parley_location_error);
    reportError("widget.location", error && error.message ? error.message : "location unavailable");
  }, { timeout: 10000 });
}

function shareText(text) {
  if (navigator.share) { navigator.share({ text: text }).catch(function () {}); } else { copyText(text); }
}

function copyText(text) {
  if (navigator.clipboard && navigator.clipboard.writeText) { navigator.clipboard.writeText(text).catch(function () {}); }
}

function showPopup(payload) {
  var overlay = el("div", "parley-overlay");
  var dialog = el("div", "parley-dialog");
  var context = { text: payload.text || "", popup: overlay };
  dialog.appendChild(renderPayload(payload, context));
  var close = el("button", "parley-action", strings.odais_done);
  close.type = "button";
  close.addEventListener("click", function () { overlay.remove(); });
  dialog.appendChild(close);
  overlay.appendChild(dialog);
  ui.root.appendChild(overlay);
}

/** A payload with its header text, content, footer text, actions, global actions and footer form. */
export function renderPayload(payload, context) {
  var box = el("div", "parley-payload");
  box.setAttribute("data-type", String(payload.type));
  if (payload.headerText) { box.appendChild(el("div", "parley-header-text", payload.headerText)); }
  box.appendChild(renderContent(payload, context));
  if (payload.footerText) { box.appendChild(el("div", "parley-footer-text", payload.footerText)); }
  if (Array.isArray(payload.actions) && payload.actions.length) {
    var stars = payload.channelExtensions && payload.channelExtensions.displayType === "stars";
    box.appendChild(renderActions(payload.actions, context, "parley-actions" + (stars ? " parley-stars" : "")));
  }
  if (isObject(payload.footerForm)) { box.appendChild(renderReadOnlyForm(payload.footerForm, context, 1)); }
  if (Array.isArray(payload.globalActions) && payload.globalActions.length) {
    box.appendChild(renderActions(payload.globalActions, context, "parley-actions parley-global-actions"));
  }
  return box;
}

