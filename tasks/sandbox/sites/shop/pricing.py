"""Money formatting and the shipping methods (shared by checkout and the seed)."""

from __future__ import annotations

from dataclasses import dataclass

FLAT_RATE_PER_ITEM_CENTS = 500
FREE_SHIPPING_MIN_SUBTOTAL_CENTS = 10000


@dataclass(frozen=True)
class ShippingMethod:
    code: str  # Magento's carrier_method code
    carrier: str  # "Flat Rate"
    method: str  # "Fixed"

    @property
    def description(self) -> str:  # what Magento stores as shipping_description
        return f"{self.carrier} - {self.method}"


FLAT_RATE = ShippingMethod("flatrate_flatrate", "Flat Rate", "Fixed")
FREE_SHIPPING = ShippingMethod("freeshipping_freeshipping", "Free Shipping", "Free")
SHIPPING_METHODS = {m.code: m for m in (FLAT_RATE, FREE_SHIPPING)}

PAYMENT_METHODS = {"checkmo": "Check / Money order"}


def shipping_cost_cents(method: ShippingMethod, total_qty: int) -> int:
    return FLAT_RATE_PER_ITEM_CENTS * total_qty if method is FLAT_RATE else 0


def free_shipping_available(subtotal_cents: int) -> bool:
    return subtotal_cents >= FREE_SHIPPING_MIN_SUBTOTAL_CENTS


def money(cents: int) -> str:
    """Magento's US format: $1,234.50."""
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def to_float(cents: int) -> float:
    return round(cents / 100, 2)
