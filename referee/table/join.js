// Joining by link: a seat's link carries the match, the seat and its secret in the URL fragment
// (#join=<match>&seat=<n>&secret=<s>; a spectator's #watch=<match>), which browsers never send
// to a server nor put in a Referer. The page reads it once at load and removes it from the
// address bar at once. QR codes of the links are drawn by the vendored qrcode-generator.
"use strict";

window.TableJoin = (function () {
  // Read (and clear) the fragment: {id, seat, secret} for a seat, {id, seat: null, secret:
  // null} for a spectator, or null. Called before anything else runs.
  function takeFragment() {
    const hash = window.location.hash.replace(/^#/, "");
    if (!hash) return null;
    const params = new URLSearchParams(hash);
    // A match id is URL-safe base64 and a seat a whole number: a link that holds anything else
    // (a path such as "..", an empty seat) joins nothing, rather than a path or seat it never named.
    const id = (name) => (/^[A-Za-z0-9_-]{1,64}$/.test(params.get(name) || "") ? params.get(name) : null);
    let found = null;
    if (params.get("join")) {
      const seat = /^\d{1,2}$/.test(params.get("seat") || "") ? Number(params.get("seat")) : null;
      const secret = params.get("secret") || "";
      if (id("join") && seat !== null && secret) found = { id: id("join"), seat, secret };
    } else if (id("watch")) {
      found = { id: id("watch"), seat: null, secret: null };
    }
    if (params.get("join") || params.get("watch")) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    return found;
  }

  function base() { return window.location.origin + "/table"; }

  function seatLink(id, seat, secret) {
    const params = new URLSearchParams({ join: id, seat: String(seat), secret });
    return base() + "#" + params.toString();
  }

  function spectatorLink(id) {
    return base() + "#" + new URLSearchParams({ watch: id }).toString();
  }

  // An <img> of the QR code of ``text`` (a GIF data URL; the page's CSP allows data: images).
  function qrImage(text, alt) {
    const code = window.qrcode(0, "M");
    code.addData(text);
    code.make();
    const image = document.createElement("img");
    image.className = "qr";
    image.src = code.createDataURL(5, 20);
    image.alt = alt;
    const size = code.getModuleCount() * 5 + 40;
    image.width = size;
    image.height = size;
    return image;
  }

  async function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return;
    }
    // Plain http on a local network: the clipboard API is not offered; select and copy.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "offscreen";
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    if (!done) throw new Error("copy");
  }

  return { takeFragment, seatLink, spectatorLink, qrImage, copy };
})();
