"""What the page kit sends to the browser, as strings: its style sheets and scripts.

:mod:`smoothviz.ui.kit` sends the shell once per tab, the page and presenter sheets every run, the
scroll script when a link names a tab.
"""

# A projector and a laptop: less padding above a one-line title, metrics that wrap, not truncate.
PAGE_CSS = """
<style>
.stMainBlockContainer { padding-top: 2.6rem; padding-bottom: 3rem;
  padding-left: 1.5rem; padding-right: 1.5rem; }
.stMainBlockContainer h1 { font-size: 1.85rem; padding: 0.1rem 0 0.2rem 0; line-height: 1.25; }
[data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] div,
[data-testid="stMetricValue"] div { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; }
[data-testid="stMetricValue"] { font-size: 1.7rem; line-height: 1.2; }
[data-testid="stMetric"] { min-width: 0; }
</style>
"""
# Presenter mode: no sidebar or chrome, body type ≥ 22 px; figures enlarge their own type.
PRESENT_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
.stMainBlockContainer { padding-top: 1rem; max-width: 100%; }
.stMainBlockContainer p, .stMainBlockContainer li, .stMainBlockContainer label,
.stMainBlockContainer [data-testid="stWidgetLabel"] p,
[data-testid="stCaptionContainer"] { font-size: 22px !important; }
.stMainBlockContainer h1 { font-size: 2.3rem; }
[data-testid="stMetricValue"] { font-size: 2.2rem; }
.stMainBlockContainer [data-testid="stSliderThumbValue"], .stMainBlockContainer [data-testid="stSliderTickBar"],
.stMainBlockContainer [data-baseweb="select"] div, .stMainBlockContainer input,
.stMainBlockContainer button p, .stMainBlockContainer a[data-testid="stPageLink-NavLink"] p
{ font-size: 22px !important; }
</style>
"""

# Accessibility (axe-core, tests/test_browser_a11y.py): a visible focus ring, the slider's thumb too
# (its input is hidden), and a locked control's label that keeps its contrast.
A11Y_CSS = """<style>
:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }
[data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {
  outline: 3px solid #0072B2; outline-offset: 3px; border-radius: 50%; }
label[data-testid="stWidgetLabel"][disabled], label[data-testid="stWidgetLabel"][disabled] p {
  color: #4d4d4d !important; }
</style>"""
# Installed once per browser tab; a MutationObserver keeps the later parts true as pages redraw.
SHELL_JS = """<script>
(() => {
  if (window.__smoothvizShell) return;
  window.__smoothvizShell = true;
  // One history entry per user action. Streamlit pushes one per address change (a page change, then
  // the new page's first write, then a cap), so Back took two presses and could land on the old
  // page's values under the new path. A push that changes only the query with no click, tap or key
  // since the last one replaces the entry instead; Back and Forward push nothing. A busy server may
  // send the new page's first write before Streamlit moves the path: it goes under the new path.
  let acted = false;
  let going = null;  // the page a link just clicked leads to, until the address gets there
  const acting = (link) => {  // a user's action, on ``link`` (or null) when it follows one
    acted = true;
    going = null;
    if (link) {
      const to = new URL(link.href, window.location.href);
      if (to.origin === window.location.origin && to.pathname !== window.location.pathname) {
        going = to.pathname;
      }
    }
  };
  const act = (event) => {
    if (!event.isTrusted) return;
    const link = event.target.closest && event.target.closest("a[href]");
    const plain = event.type === "keydown" ? event.key === "Enter"
      : !(event.button > 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey);
    acting(link && plain ? link : null);
  };
  for (const type of ["pointerdown", "keydown", "touchstart"]) {
    document.addEventListener(type, act, true);
  }
  // The lecture clicker's keys press the scene bar's buttons by script: it reports its step here.
  window.__smoothvizActing = acting;
  window.addEventListener("popstate", () => { acted = false; going = null; }, true);
  const push = window.history.pushState.bind(window.history);
  window.history.pushState = (state, title, url) => {
    const target = new URL(url === undefined || url === null ? window.location.href : url,
                           window.location.href);
    const page = target.pathname;
    if (going && page === window.location.pathname) {
      target.pathname = going;
      acted = false;
      going = null;
      return push(state, title, target.pathname + target.search + target.hash);
    }
    if (page === going) going = null;
    if (!acted && page === window.location.pathname) {
      return window.history.replaceState(state, title, url);
    }
    acted = false;
    return push(state, title, url);
  };
  // Every chart a figure named by its caption's first sentence; a wide formula takes focus.
  const label = () => {
    for (const chart of document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')) {
      const next = chart.closest(".stElementContainer")?.nextElementSibling;
      const caption = next?.querySelector('[data-testid="stCaptionContainer"]')?.innerText?.trim();
      if (!caption) continue;
      const first = (caption.match(/^.*?[.!?](?=\\s|$)/) || [caption])[0];
      if (chart.getAttribute("aria-label") !== first) {
        chart.setAttribute("role", "figure");
        chart.setAttribute("aria-label", first);
      }
    }
    for (const box of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      if (!scrolls && box.getAttribute("tabindex") === "0") box.removeAttribute("tabindex");
    }
  };
  // on a phone or tablet, legends, chart type and labels smaller, so a legend keeps to two or three rows
  const phone = () => {
    const narrow = window.innerWidth <= 820;
    for (const gd of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
      // a scene's hero, cut short for a laptop's first screen: a phone scrolls to it, so it gets its
      // own height back (Streamlit sizes the chart to its element's flex basis)
      const own = narrow && gd.layout && gd.layout.meta && gd.layout.meta.phone_height;
      const box = gd.closest('[data-testid="stElementContainer"]');
      const flex = own ? `0 0 ${own}px` : "";
      if (box && box.style.flex !== flex) box.style.flex = flex;
      if (!narrow || !window.Plotly) continue;
      // a player's buttons left of its rail leave a phone ~50 px of rail under a label that runs into
      // them: the rail goes below the buttons, the plot's whole width
      const slider = gd.layout && gd.layout.sliders && gd.layout.sliders[0];
      if (slider && slider.pad && slider.pad.l > 0 && gd._fullLayout) {
        window.Plotly.relayout(gd, {"sliders[0].pad.l": 0, "sliders[0].pad.t": (slider.pad.t || 0) + 44,
                                     "margin.b": gd._fullLayout.margin.b + 44});
      }
      const legend = gd.layout && gd.layout.legend;
      if (legend && gd.layout.showlegend !== false && !(legend.font && legend.font.size <= 11)) {
        const left = gd.layout.margin && gd.layout.margin.l;
        const l = Math.min(left || 80, 56);
        const size = gd._fullLayout && gd._fullLayout._size;
        // a column of entries (a row each on a phone), or a legend under a titled figure (plotly gives
        // it half the width), becomes a row above the plot
        const above = {"legend.orientation": "h", "legend.y": 1.02, "legend.yanchor": "bottom",
                       "legend.yref": "paper"};
        const move = legend.orientation !== "h" || legend.yref === "container";
        const flat = move ? above : {};
        const y = move ? 1.02 : legend.y;
        const wide = size && size.w > 0 && (y > 1 || y < 0) && !legend.xref;
        // a legend above or below the plot may then use the figure's whole width, its left margin too
        const x = wide ? -l / (size.w + (size.l || l) - l) : legend.x;
        // labels on the plot (boxed, placed to fit a phone's plot at 15 px) go to the chart's 12 px
        const notes = {};
        (gd.layout.annotations || []).forEach((note, i) => {
          if (note.bgcolor && note.font && note.font.size > 12) notes[`annotations[${i}].font.size`] = 12;
        });
        window.Plotly.relayout(gd, {"legend.font.size": 11, "legend.itemwidth": 30, "font.size": 12,
                                     "margin.l": l, "legend.x": x, "legend.xanchor": "left", ...flat,
                                     ...notes})
          .then(() => {  // still over two rows (a row is ~29 px): one size smaller closes the gap
            const drawn = gd.querySelector(".legend");
            if (drawn && drawn.getBoundingClientRect().height > 62) {
              return window.Plotly.relayout(gd, {"legend.font.size": 10, "legend.tracegroupgap": 0});
            }
          })
          .then(() => {  // a legend moved above a titled plot: the title goes above the legend
            const drawn = gd.querySelector(".legend");
            if (!move || !drawn || !(gd.layout.title && gd.layout.title.text)) return;
            const tall = Math.round(drawn.getBoundingClientRect().height);
            return window.Plotly.relayout(gd, {"margin.t": tall + 44, "title.yref": "container",
                                               "title.y": 1, "title.yanchor": "top", "title.pad.t": 6});
          })
          .then(() => fitTitle(gd));
      } else {
        fitTitle(gd);
      }
    }
  };
  // a title wider than a phone's chart gets smaller type (room for a player's longer titles), and one
  // the legend runs into gets the legend's overlap more top margin
  const fitTitle = (gd) => {
    const title = gd.querySelector(".gtitle");
    const full = gd._fullLayout;
    if (!title || !full || !full.title) return;
    const t = title.getBoundingClientRect();
    const room = gd.getBoundingClientRect().width - 8;
    const update = {};
    if (t.width > room && full.title.font.size > 11) {
      update["title.font.size"] = Math.max(11, Math.floor(full.title.font.size * 0.8 * room / t.width));
    }
    const drawn = gd.querySelector(".legend");
    const l = drawn && drawn.getBoundingClientRect();
    if (l && l.height > 0 && l.top < t.bottom && l.bottom > t.top) {
      update["margin.t"] = full.margin.t + Math.ceil(t.bottom - l.top) + 4;
    }
    if (Object.keys(update).length) window.Plotly.relayout(gd, update);
  };
  // Charts drawn when seen. Streamlit 1.67 remounts every chart of a run and draws it twice (hidden,
  // while its width is unknown, then at its width), charts far below the fold too. A chart not drawn
  // yet that is hidden or out of reach (over a quarter screen below or above the view) waits: its div
  // holds the figure as plotly would (data, layout, frames) and the latest figure is drawn once, when
  // it comes within reach, is given its width, or the page is printed. A chart already drawn updates
  // as before. ``window.__smoothvizEagerCharts = true`` (before the page loads) turns this off.
  const waiting = new Map();  // a chart's div → the latest figure it was given
  let plotly = null;
  let react = null;
  const reach = (gd) => {
    const box = gd.getBoundingClientRect();
    const margin = window.innerHeight / 4;
    return box.bottom > -margin && box.top < window.innerHeight + margin;
  };
  const draw = (gd) => {
    const figure = waiting.get(gd);
    const listeners = gd.__smoothvizOn;
    waiting.delete(gd);
    seen.unobserve(gd);
    for (const own of ["on", "removeListener", "__smoothvizOn", "_transitionData"]) delete gd[own];
    gd.removeAttribute("data-smoothviz-waiting");
    const drawn = react.call(plotly, gd, figure);
    for (const [name, listener] of listeners) gd.on(name, listener);  // plotly's events exist now
    Promise.resolve(drawn).then(phone);
    return drawn;
  };
  const wait = (gd, figure) => {
    if (!waiting.has(gd)) {  // until plotly has the div, the chart's listeners are kept for it
      gd.__smoothvizOn = [];
      gd.on = (name, listener) => { gd.__smoothvizOn.push([name, listener]); };
      gd.removeListener = (name, listener) => {
        gd.__smoothvizOn = gd.__smoothvizOn.filter(([n, l]) => n !== name || l !== listener);
      };
      seen.observe(gd);
    }
    // marked (for tests and benchmarks) once it has its width: then only a scroll draws it
    gd.toggleAttribute("data-smoothviz-waiting", gd.style.visibility !== "hidden");
    waiting.set(gd, figure);
    gd.data = figure.data;
    gd.layout = figure.layout;
    gd._transitionData = { _frames: figure.frames || [] };
    return Promise.resolve(gd);
  };
  const shown = (gd) => waiting.has(gd) && gd.style.visibility !== "hidden";
  const seen = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting && shown(entry.target)) draw(entry.target);
  });
  let checking = false;
  const check = () => {
    if (checking || !waiting.size) return;
    checking = true;
    requestAnimationFrame(() => {
      checking = false;
      for (const gd of [...waiting.keys()]) if (shown(gd) && reach(gd)) draw(gd);
    });
  };
  // Sized while still hidden (a loaded machine): no call may follow when it is shown, and the
  // intersection observer has already looked, so its showing is watched. The draw waits 250 ms, so
  // a call of Streamlit's own, if one comes, draws it first and the two draws never overlap.
  const shownLater = (gd) => {
    const watch = new MutationObserver(() => {
      if (!waiting.has(gd)) return watch.disconnect();
      if (gd.style.visibility === "hidden") return;
      watch.disconnect();
      setTimeout(() => {
        if (!shown(gd)) return;
        if (reach(gd)) draw(gd);
        else gd.toggleAttribute("data-smoothviz-waiting", true);  // a scroll draws it
      }, 250);
    });
    watch.observe(gd, { attributes: true, attributeFilter: ["style"] });
  };
  const lazy = (lib) => {
    if (!lib || lib === plotly || window.__smoothvizEagerCharts) return;
    plotly = lib;
    react = lib.react;
    const purge = lib.purge;
    lib.react = function (gd, figure, ...more) {
      const direct = !(gd instanceof HTMLElement) || gd._fullLayout || more.length || !figure;
      if (direct) return react.call(this, gd, figure, ...more);  // drawn before: it updates
      // a hidden chart is shown only with a width, in a later call
      if (gd.style.visibility === "hidden" || !reach(gd)) {
        if (waiting.has(gd) && gd.style.visibility === "hidden") shownLater(gd);
        return wait(gd, figure);
      }
      if (!waiting.has(gd)) return react.call(this, gd, figure);
      waiting.set(gd, figure);
      return draw(gd);
    };
    lib.purge = function (gd) {
      if (waiting.has(gd)) {
        waiting.delete(gd);
        seen.unobserve(gd);
      }
      return purge.apply(this, arguments);
    };
  };
  let loaded = window.Plotly;
  lazy(loaded);
  Object.defineProperty(window, "Plotly", {
    configurable: true,
    get: () => loaded,
    set: (lib) => { loaded = lib; lazy(lib); },
  });
  document.addEventListener("scroll", check, { capture: true, passive: true });
  window.addEventListener("resize", check);
  window.addEventListener("beforeprint", () => { for (const gd of [...waiting.keys()]) draw(gd); });
  const update = () => { label(); phone(); };
  // labels in the next frame (its layout is due anyway, so reading it costs nothing extra), before
  // plotly has drawn; the phone layout relayouts plotly, so it waits for 200 ms of changes to pass
  let framed = false;
  let queued = false;
  new MutationObserver(() => {
    if (!framed) {
      framed = true;
      requestAnimationFrame(() => { framed = false; label(); });
    }
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; phone(); }, 200);
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  window.addEventListener("resize", update);
  // a formula drawn before KaTeX's fonts came is measured again when they come (no node changes then)
  document.fonts.addEventListener("loadingdone", label);
  update();
})();
</script>"""
# A phone or tablet (≤ 820 px): title below Streamlit's 64 px header, smaller type, story controls two
# to a row and the scene bar's buttons beside its title (Streamlit stacks columns below 640 px), so the
# hero starts on the first screen; 24 px slider thumbs; no toolbar over the legend (SHELL_JS sizes it).
PHONE_CSS = """<style>
@media (max-width: 820px) {
  .stMainBlockContainer { padding-top: 4.1rem !important; padding-left: 1rem; padding-right: 1rem; }
  .stMainBlockContainer h1 { font-size: 1.4rem !important; line-height: 1.25; }
  [data-testid="stMain"] h1 + * p, .stMainBlockContainer [data-testid="stMarkdownContainer"] p {
    font-size: 0.95rem; }
  .stMainBlockContainer [data-testid="stHorizontalBlock"]:has([data-testid="stSlider"]),
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] { flex-wrap: wrap !important;
    flex-direction: row !important; gap: 0.2rem 0.8rem !important; }
  .stMainBlockContainer [data-testid="stHorizontalBlock"]:has([data-testid="stSlider"])
    > [data-testid="stColumn"] { min-width: calc(50% - 0.8rem) !important;
    flex: 1 1 calc(50% - 0.8rem) !important; width: auto !important; }
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
    min-width: 0 !important; flex: 0 1 auto !important; width: auto !important; }
  .st-key-smoothviz-lecture [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]:first-child {
    flex: 1 1 100% !important; }
  [data-testid="stMain"] .modebar-container { display: none !important; }
  [data-testid="stMain"] [role="tablist"] { flex-wrap: wrap; row-gap: 0.2rem; overflow: visible; }
  [data-testid="stMain"] [role="tab"] { min-height: 2.2rem; }
  [data-testid="stSlider"] div:has(> div > input[type="range"]) { width: 24px !important;
    height: 24px !important; }
}
</style>"""
# Embedded (``embed=true`` in the link, e.g. an iframe in a course page): only the page, no navigation.
EMBED_CSS = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stDecoration"] { display: none !important; }
.stMainBlockContainer { padding-top: 1rem !important; max-width: 100%; }
</style>"""

# A link names a tab (:func:`smoothviz.ui.kit.tabs`): the tabs go to the top of the screen and stay
# there while the charts are drawn; only this document's own box scrolls (not an embedding page).
SCROLL_TO_TABS_JS = """<script>
(() => {
  const scroller = (el) => {
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (/(auto|scroll)/.test(style.overflowY) && box.scrollHeight > box.clientHeight) return box;
    }
    return document.scrollingElement;
  };
  // until every chart is drawn (a page is too short to scroll that far before); a user takes over
  let tries = 0;
  const mine = ["wheel", "touchmove", "keydown", "pointerdown"];
  const stop = () => {
    clearInterval(timer);
    for (const type of mine) window.removeEventListener(type, stop, true);
  };
  for (const type of mine) window.addEventListener(type, stop, true);
  const timer = setInterval(() => {
    const tabs = document.querySelector('[data-testid="stTabs"]');
    let off = Infinity;
    if (tabs) {
      const box = scroller(tabs);
      const top = box === document.scrollingElement ? 0 : box.getBoundingClientRect().top;
      // below Streamlit's header where it is drawn (a phone's 64 px white bar)
      const header = document.querySelector('[data-testid="stHeader"]');
      const shown = header && getComputedStyle(header).display !== "none";
      const below = shown ? Math.max(0, header.getBoundingClientRect().bottom - top) : 0;
      box.scrollTop += tabs.getBoundingClientRect().top - top - below;
      off = Math.abs(tabs.getBoundingClientRect().top - top - below);
    }
    // drawn, or waiting to be scrolled to (the shell)
    const plots = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')];
    const settled = plots.length > 0 && !document.querySelector('[data-testid="stStatusWidget"]')
      && plots.every((p) => p.querySelector('.main-svg, [data-smoothviz-waiting]'));
    if ((settled && off < 2 && tries > 5) || ++tries > 600) stop();
  }, 100);
})();
</script>"""
