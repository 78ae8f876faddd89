"""A realistic sample answer (PDF pages, a web page, a record, a file without a URL).

Used by ``citecast preview`` when no answer is given, and by the benchmark.
"""

from __future__ import annotations

from bot.models import Answer, Citation, RecordAction, Source

SAMPLE_TEXT = """\
## Installing the Acme gateway on Linux

The gateway runs on any 64-bit Linux with **systemd** and needs 2 GB of RAM.[^1] Install the
package, then enable the service:

```sh
sudo apt install acme-gateway
sudo systemctl enable --now acme-gateway
```

If the service fails to start, check that port 8443 is free; the installer does not move it.[^2]

### What it costs

| Plan | Price | Devices |
|---|---|---|
| Starter | $29/month | 10 |
| Business | $99/month | 100 |

The Business plan is in stock and ships within two days.[^3] The full price list for resellers
is in the attached sheet.[^4]

> Tip: keep the configuration in `/etc/acme/gateway.yaml` under version control.[^1][^2]
"""


def sample_answer() -> Answer:
    """The built-in sample answer with four citations of four different forms."""
    manual = Source(
        id="manual.pdf#p12",
        title="Acme Gateway Admin Guide",
        url="https://docs.acme.example/gateway/admin-guide.pdf",
        page=12,
        section="Installation > Linux",
        kind="passage",
        text="Requirements: 64-bit Linux with systemd, 2 GB RAM.",
    )
    faq = Source(
        id="faq-ports",
        title="Troubleshooting: the service does not start",
        url="https://docs.acme.example/gateway/troubleshooting",
        section="Ports",
        kind="web",
    )
    record = Source(
        id="plan-business",
        kind="record",
        label="Business plan",
        title="Business plan",
        url="https://shop.acme.example/plans/business",
        columns={"price": "$99/month", "stock": "in stock", "ships": "2 days"},
        action=RecordAction(label="Order", url="https://shop.acme.example/cart/add/business"),
    )
    sheet = Source(
        id="reseller-prices",
        title="Reseller price list 2026",
        filename="reseller-prices-2026.pdf",
        path="examples/reseller-prices-2026.pdf",
        media_type="application/pdf",
        kind="file",
        page=1,
    )
    return Answer(
        text=SAMPLE_TEXT,
        citations=(
            Citation(1, manual, 1, quote="Requirements: 64-bit Linux with systemd, 2 GB RAM.",
                     deep_link="https://docs.acme.example/gateway/admin-guide.pdf#page=12",
                     support=0.91),
            Citation(2, faq, 2, quote="The installer never changes the listening port (8443).",
                     support=0.3),
            Citation(3, record, 3, columns=("stock", "ships"), support=0.88),
            Citation(4, sheet, 4),
        ),
    )  # fmt: skip
