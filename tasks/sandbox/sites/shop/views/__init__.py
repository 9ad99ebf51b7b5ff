"""The shop's pages, one blueprint per area (the REST API registers itself separately)."""

from tasks.sandbox.sites.shop.views.cart import bp as cart_bp
from tasks.sandbox.sites.shop.views.catalog import bp as catalog_bp
from tasks.sandbox.sites.shop.views.customer import bp as customer_bp
from tasks.sandbox.sites.shop.views.orders import bp as orders_bp
from tasks.sandbox.sites.shop.views.reviews import bp as reviews_bp
from tasks.sandbox.sites.shop.views.wishlist import bp as wishlist_bp

# The catalog's catch-all "/<key>.html" route goes last.
ALL_BLUEPRINTS = (customer_bp, cart_bp, orders_bp, reviews_bp, wishlist_bp, catalog_bp)
