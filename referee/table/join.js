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
    let found = null;
    if (params.get("join")) {
      const seat = Number(params.get("seat"));
      const secret = params.get("secret") || "";
      if (Number.isInteger(seat) && seat >= 0 && secret) found = { id: params.get("join"), seat, secret };
    } else if (params.get("watch")) {
      found = { id: params.get("watch"), seat: null, secret: null };
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
