"""The seeded users and the biographies some of them wrote.

The first user is the account the WebArena reddit tasks log in as; its password
comes from the sandbox registry. Others get a password made from their name.
"""

USERNAMES: list[str] = [
    "MarvelsGrantMan136",
    "bookwyrm_ella",
    "quietkettle",
    "pixel_pioneer",
    "saltandsawdust",
    "orbit_watcher",
    "ramen_ronin",
    "trailmix_tom",
    "vinyl_vanessa",
    "midfield_maestro",
    "circuit_sage",
    "history_buff_42",
    "couchcritic",
    "gearhead_gail",
    "moss_and_maple",
    "late_night_lena",
    "byte_sized_ben",
    "fermented_fred",
    "wanderlust_wu",
    "chalkdust_carl",
    "neon_nomad",
    "sourdough_sam",
    "the_real_kestrel",
    "mapmaker_mo",
    "drizzle_dan",
]

BIOGRAPHIES: dict[str, str] = {
    "MarvelsGrantMan136": "Film nerd, weekend coder and slow reader.",
    "bookwyrm_ella": "Librarian by day. Currently reading three books at once.",
    "saltandsawdust": "Woodworker, mostly oak and walnut. Ask me about finishes.",
    "orbit_watcher": "Amateur astronomer with a 6-inch Dobsonian.",
    "ramen_ronin": "Home cook chasing the perfect broth.",
    "vinyl_vanessa": "Collecting records since 2009.",
    "circuit_sage": "Embedded engineer. Opinions are my own.",
    "history_buff_42": "Reading about the Bronze Age so you don't have to.",
    "wanderlust_wu": "43 countries and counting.",
}
