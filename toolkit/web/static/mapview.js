// The map: the server's SVG as the base, layers on top, pan (drag), zoom (wheel, pinch, buttons), counters
// carried by drag, and hex hit-testing.
import {url} from "./api.js";
import {svgEl} from "./svg.js";

const DRAG_PX = 4;          // a press that moves less than this is a click
export const ZOOM_STEP = 1.4;
const WHEEL_ZOOM = 0.0028;  // zoom factor per wheel pixel (exponential: a mouse notch of 120 is about ZOOM_STEP)
const MAX_HEX_PX = 400;     // the closest zoom: a hex this many pixels wide
const START_HEX_PX = 48;    // the first view of a large map: counters legible

export class MapView {
  constructor(svg) {
    this.svg = svg;
    this.base = svgEl("image", {class: "base", preserveAspectRatio: "none"}, svg);
    this.layerRoot = svgEl("g", {class: "layers"}, svg);
    this.layers = new Map();
    this.handlers = {hover: [], click: [], carry: [], drop: []};
    this.grab = () => false;   // whether a press on a hex picks up its counter (set by the page)
    this.geometry = null;
    this.viewBox = null;
    this.listen();
  }

  on(event, fn) { this.handlers[event].push(fn); }
  emit(event, ...args) { for (const fn of this.handlers[event]) fn(...args); }

  // Show a source's map; resolves when the map image has been drawn.
  async load(sourceId, geometry) {
    this.geometry = geometry;
    this.names = Object.keys(geometry.hexes);
    const [c0x, c0y] = geometry.corners[0];
    this.radius = Math.hypot(c0x, c0y);
    for (const g of this.layers.values()) g.replaceChildren();
    const [x, y, w, h] = geometry.viewBox;
    Object.entries({x, y, width: w, height: h}).forEach(([k, v]) => this.base.setAttribute(k, v));
    const loaded = new Promise((resolve, reject) => {
      this.base.onload = resolve;
      this.base.onerror = () => reject(new Error(`the map of ${sourceId} could not be drawn (/api/map.svg)`));
    });
    this.base.setAttribute("href", url("/api/map.svg", {source: sourceId}));
    await loaded;
  }

  // A layer's group, created on first use; layers are drawn in the order they were first asked for.
  layer(name) {
    if (!this.layers.has(name)) this.layers.set(name, svgEl("g", {class: `layer layer-${name}`}, this.layerRoot));
    return this.layers.get(name);
  }

  clear(name) { this.layer(name).replaceChildren(); }

  centre(hex) { return this.geometry.hexes[hex]; }
  has(hex) { return hex in this.geometry.hexes; }

  // The hex's outline as SVG polygon points, scaled about its centre by `factor`.
  hexPoints(hex, factor = 1) {
    const [cx, cy] = this.centre(hex);
    return this.geometry.corners.map(([dx, dy]) => `${cx + dx * factor},${cy + dy * factor}`).join(" ");
  }

  // A line through the centres of hexes on the map, as SVG polyline points.
  pathPoints(hexes) {
    return hexes.filter((hex) => this.has(hex)).map((hex) => this.centre(hex).join(",")).join(" ");
  }

  // The boundary of a set of hexes as SVG path data: the edges whose far side is not in the set.
  outline(hexes) {
    const inside = new Set(hexes.filter((h) => this.has(h)).map((h) => this.key(...this.centre(h))));
    const c = this.geometry.corners, parts = [];
    for (const h of hexes) {
      if (!this.has(h)) continue;
      const [x, y] = this.centre(h);
      c.forEach(([ax, ay], i) => {
        const [bx, by] = c[(i + 1) % 6];
        if (!inside.has(this.key(x + ax + bx, y + ay + by))) parts.push(`M${x + ax},${y + ay}L${x + bx},${y + by}`);
      });
    }
    return parts.join("");
  }

  // A hex centre as a lookup key (rounded: neighbours' centres are computed from corner offsets).
  key(x, y) { return `${Math.round(x * 10)},${Math.round(y * 10)}`; }

  hexPolygon(hex, attrs, parent, factor = 1) {
    return svgEl("polygon", {points: this.hexPoints(hex, factor), "data-hex": hex, ...attrs}, parent);
  }

  // The hex under a client point, or null off the map.  The nearest centre within a hex radius
  // is the hex containing the point (the hexes are the Voronoi cells of their centres).
  hexAt(clientX, clientY) {
    if (!this.geometry) return null;
    const [x, y] = this.toMap(clientX, clientY);
    let best = null, bestD = this.radius * this.radius;
    for (const name of this.names) {
      const [cx, cy] = this.geometry.hexes[name];
      const d = (cx - x) ** 2 + (cy - y) ** 2;
      if (d < bestD) { best = name; bestD = d; }
    }
    return best;
  }

  toMap(clientX, clientY) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(this.svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  // The client point of a hex's centre (for tests and popovers).
  toClient(hex) {
    const [x, y] = this.centre(hex);
    const p = new DOMPoint(x, y).matrixTransform(this.svg.getScreenCTM());
    return [p.x, p.y];
  }

  setViewBox(x, y, w, h) {
    this.viewBox = [x, y, w, h];
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
  }

  // The viewBox that shows all of [x, y, w, h] with the element's aspect ratio.
  show(x, y, w, h) {
    const box = this.svg.getBoundingClientRect();
    const aspect = box.width / Math.max(1, box.height);
    const vw = Math.max(w, h * aspect), vh = vw / aspect;
    this.setViewBox(x + (w - vw) / 2, y + (h - vh) / 2, vw, vh);
  }

  fit() { this.show(...this.geometry.viewBox); }

  // The first view of a source: the whole map when its counters are legible so, else legible counters
  // around the middle of the units on the map (Fit shows the whole map).
  start(units) {
    this.fit();
    const placed = units.filter((u) => u.hex && this.has(u.hex)).map((u) => this.centre(u.hex));
    if (!placed.length || this.hexPixels() >= START_HEX_PX) return;
    const mean = (i) => placed.reduce((sum, p) => sum + p[i], 0) / placed.length;
    this.focusPoint(mean(0), mean(1), START_HEX_PX);
  }

  // Zoom by `factor` keeping the map point under (clientX, clientY) in place (the centre by default).
  zoom(factor, clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    const cx = clientX ?? box.left + box.width / 2, cy = clientY ?? box.top + box.height / 2;
    const [mx, my] = this.toMap(cx, cy);
    const [x, y, w, h] = this.viewBox;
    const minW = this.radius * 2 * box.width / MAX_HEX_PX;
    const maxW = this.geometry.viewBox[2] * 4;
    const nw = Math.min(maxW, Math.max(minW, w / factor)), k = nw / w;
    this.setViewBox(mx - (mx - x) * k, my - (my - y) * k, nw, h * k);
  }

  // How wide a hex is on the screen now, in pixels.
  hexPixels() {
    return this.radius * 2 * this.svg.getBoundingClientRect().width / this.viewBox[2];
  }

  // `hex` in the middle, hexes at least `hexPx` wide (a small map shown larger is not zoomed out).
  focus(hex, hexPx = 60) { this.focusPoint(...this.centre(hex), Math.max(hexPx, this.hexPixels())); }

  focusPoint(cx, cy, hexPx) {
    const box = this.svg.getBoundingClientRect();
    const w = this.radius * 2 * box.width / hexPx, h = w * box.height / box.width;
    this.setViewBox(cx - w / 2, cy - h / 2, w, h);
  }

  // Pointer input: a press that does not move is a click; a drag pans the map, or carries a counter when
  // `grab(hex)` says the press picked one up ("carry" when the drag starts, "drop" with the hexes it came from and
  // went to); two fingers pinch to zoom.  A finger has no hover: a tap is a click, then the hover of the hex tapped
  // (what the pointer would show there stays shown until the next tap).
  listen() {
    const svg = this.svg, fingers = new Map();
    let press = null, pinch = null;
    svg.addEventListener("pointerdown", (e) => {
      fingers.set(e.pointerId, [e.clientX, e.clientY]);
      if (fingers.size === 2) {
        press = null;
        pinch = this.pinchOf(fingers);
        return;
      }
      if (e.button !== 0 || !this.viewBox) return;
      const hex = this.hexAt(e.clientX, e.clientY);
      press = {x: e.clientX, y: e.clientY, box: [...this.viewBox], dragging: false, id: e.pointerId,
               carried: hex && this.grab(hex) ? hex : null};
    });
    svg.addEventListener("pointermove", (e) => {
      if (fingers.has(e.pointerId)) fingers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pinch && fingers.size === 2) {
        const now = this.pinchOf(fingers);
        this.zoom(now.spread / pinch.spread, ...now.middle);
        pinch = now;
        return;
      }
      if (press && (press.dragging || Math.hypot(e.clientX - press.x, e.clientY - press.y) > DRAG_PX)) {
        if (!press.dragging) {
          svg.setPointerCapture(press.id);
          if (press.carried && !this.grab(press.carried)) press.carried = null;   // its stack left while pressed
          if (press.carried) this.emit("carry", press.carried);
        }
        press.dragging = true;
        svg.classList.add(press.carried ? "carrying" : "dragging");
        if (!press.carried) {
          this.pan(press, e);
          return;
        }
      }
      this.hover(e);
    });
    const release = (e) => {
      fingers.delete(e.pointerId);
      if (fingers.size < 2) pinch = null;
      const done = press;
      press = null;
      svg.classList.remove("dragging", "carrying");
      if (!done || e.type === "pointercancel") return;
      const hex = this.hexAt(e.clientX, e.clientY);
      if (!done.dragging) this.emit("click", hex, e);
      else if (done.carried) this.emit("drop", done.carried, hex, e);
      if (e.pointerType === "touch" && !done.dragging) {
        this.lastHover = hex;
        this.emit("hover", hex);
      }
    };
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "touch") return;   // a finger lifted: what its tap shows stays
      this.lastHover = null;
      this.emit("hover", null);
    });
    svg.addEventListener("wheel", (e) => {
      if (!this.viewBox) return;
      e.preventDefault();
      const pixels = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * 40 : e.deltaY;
      this.zoom(Math.exp(-pixels * WHEEL_ZOOM), e.clientX, e.clientY);
    }, {passive: false});
    // A resized window keeps the scale and the middle of the view.
    let size = null;
    new ResizeObserver(([entry]) => {
      const {width, height} = entry.contentRect;
      if (this.viewBox && size && width && height) {
        const [x, y, w, h] = this.viewBox, k = w / size[0];
        this.setViewBox(x + (w - width * k) / 2, y + (h - height * k) / 2, width * k, height * k);
      }
      size = [width, height];
    }).observe(svg);
  }

  // The map dragged from where the press began.
  pan(press, e) {
    const k = press.box[2] / this.svg.getBoundingClientRect().width;
    const [x, y, w, h] = press.box;
    this.setViewBox(x - (e.clientX - press.x) * k, y - (e.clientY - press.y) * k, w, h);
  }

  // Move the view by a fraction of its size (the arrow keys).
  step(dx, dy) {
    const [x, y, w, h] = this.viewBox;
    this.setViewBox(x + dx * w, y + dy * h, w, h);
  }

  // Two fingers: how far apart, and the point between them.
  pinchOf(fingers) {
    const [[ax, ay], [bx, by]] = [...fingers.values()];
    return {spread: Math.max(1, Math.hypot(ax - bx, ay - by)), middle: [(ax + bx) / 2, (ay + by) / 2]};
  }

  hover(e) {
    const hex = this.hexAt(e.clientX, e.clientY);
    if (hex !== this.lastHover) {
      this.lastHover = hex;
      this.emit("hover", hex);
    }
  }

  // The hex under the pointer (or tapped last) hovered again: what it shows follows what the map now shows.
  rehover() { this.emit("hover", this.lastHover ?? null); }
}
