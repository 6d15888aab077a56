"""Labels written on the plots, as a phone and a projector draw them (marker ``browser``).

Every page at defaults at 390×844 (a phone) and 1024×768 (a projector beside the sidebar): in every
chart drawn, no label (an annotation, a point's text) runs out of the plotting area, overlaps another
label or covers a marker, and none is under 10 px. Measured from the rendered SVG's boxes. On 6cb4284
(before the placer fitted phones) 6 of the 14 failed: Regret's MW bound and Thresholds' width note ran
out of the phone's plot, PRSMA's Thm 9 covered dots, OracleQuery's q(Ŝ) = q(S) (phone and 1024×768) and
Covers' N_[] (1024×768) a dot each.
"""

from __future__ import annotations

import pytest

from tests.test_browser import PAGES, _draw_every_chart, _opened, browser, server  # noqa: F401

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "1024x768": (1024, 768)}

#: Per chart: the problems of its labels; the veil over an open lecture question is no label.
_LABELS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b, pad) => a.left < b.right - pad && b.left < a.right - pad &&
    a.top < b.bottom - pad && b.top < a.bottom - pad;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 &&
    a.bottom <= b.bottom + 1;
  const problems = [];
  const plots = [...document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')]
    .filter(p => p.offsetParent);
  for (const plot of plots) {
    const areas = [...plot.querySelectorAll('.nsewdrag')].map(box).filter(r => r.width > 0);
    const markers = [...plot.querySelectorAll('.scatterlayer .points path.point')].map(box)
      .filter(r => r.width > 0);
    const labels = [...plot.querySelectorAll('g.annotation text, .scatterlayer .textpoint text')]
      .filter(t => t.textContent.trim() && !t.textContent.includes('Predict first'))
      .map(t => ({text: t.textContent, r: box(t), point: !!t.closest('.textpoint'),
                  px: parseFloat(getComputedStyle(t).fontSize)}))
      .filter(l => l.r.width > 0);
    labels.forEach((l, i) => {
      if (!areas.some(a => inside(l.r, a))) problems.push(['runs out of the plot', l.text]);
      if (l.px < 10) problems.push(['under 10 px', l.text, l.px]);
      for (const m of labels.slice(i + 1)) {
        if (meet(l.r, m.r, 0)) problems.push(['overlaps a label', l.text, m.text]);
      }
      const covered = l.point ? 0 : markers.filter(m => meet(l.r, m, 1)).length;
      if (covered) problems.push(['covers markers', l.text, covered]);
    });
  }
  return {charts: plots.length, problems};
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_labels_on_the_plots_stay_inside_and_apart(server, browser, name, size):  # noqa: F811
    with _opened(browser, f"{server}/{name}", SIZES[size]) as (page, _):
        _draw_every_chart(page)
        shown = page.evaluate(_LABELS)
    assert shown["charts"] > 0
    assert not shown["problems"], shown["problems"]
