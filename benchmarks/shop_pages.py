"""How long the sandbox shop takes to answer its main pages (target: well under 100 ms each).

Starts the shop in the background on a free port with a private cache, signs in as
the benchmark customer, requests every page a number of times over HTTP and prints
the median and 90th percentile per page. Times include the local HTTP round trip,
so they are an upper bound on the server-side rendering time.

    .venv/bin/python benchmarks/shop_pages.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from tasks.sandbox.sites import SHOP  # noqa: E402

PAGES = (
    ("home", "/"),
    ("category", "/electronics.html"),
    ("subcategory, sorted by price", "/home-kitchen/cookware.html?product_list_order=price"),
    ("search, page 2", "/catalogsearch/result/?q=stainless+steel&p=2"),
    ("product", None),  # filled from the search results
    ("cart", "/checkout/cart/"),
    ("checkout", "/checkout/"),
    ("order history", "/sales/order/history/"),
    ("order view", None),
    ("account", "/customer/account/"),
    ("wish list", "/wishlist/"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()

    with private_sandbox("shop-bench-", sites=("shop",)) as sandbox:
        base = sandbox.shop
        session = requests.Session()
        customer = next(a for a in SHOP.accounts if a.role == "customer")
        session.post(
            base + "/customer/account/loginPost/",
            data={"login[username]": customer.username, "login[password]": customer.password},
        )
        results = session.get(base + "/catalogsearch/result/?q=yoga+leggings").text
        product = re.search(r'class="product-item-link" href="([^"]+)"', results).group(1)
        page = session.get(base + product).text
        product_id = re.search(r'name="product" value="(\d+)"', page).group(1)
        first_choices = re.findall(r'<select id="attribute-\d+" name="([^"]+)".*?<option value="([^"]+)">', page, re.S)
        options = dict(first_choices)
        session.post(base + "/checkout/cart/add/", data={"product": product_id, "qty": "1", **options})
        history = session.get(base + "/sales/order/history/").text
        order = re.search(r'href="(/sales/order/view/order_id/\d+/)"', history).group(1)

        print(f"{'page':<32} {'median ms':>10} {'p90 ms':>8}")
        for label, path in PAGES:
            path = path or (product if label == "product" else order)
            session.get(base + path)  # first request compiles templates and fills caches
            times = []
            for _ in range(args.repeats):
                started = time.perf_counter()
                response = session.get(base + path)
                times.append((time.perf_counter() - started) * 1000)
                response.raise_for_status()
            times.sort()
            p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
            print(f"{label:<32} {statistics.median(times):>10.1f} {p90:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
