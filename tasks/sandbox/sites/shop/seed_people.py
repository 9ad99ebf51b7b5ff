"""The shop's people and their history as data: customers, addresses, review phrases,
and the fixed plan of Emma Lopez's past orders (the account WebArena's tasks use).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Person:
    firstname: str
    lastname: str
    email: str
    street: str
    city: str
    region: str
    postcode: str
    telephone: str


EMMA = Person(
    "Emma", "Lopez", "emma.lopez@gmail.com",
    "2145 Maple Grove Ave", "Pittsburgh", "Pennsylvania", "15213", "4125550187",
)

OTHER_CUSTOMERS: tuple[Person, ...] = (
    Person("Liam", "Carter", "liam.carter@outlook.com",
           "88 Harbor View Rd", "Portland", "Maine", "04101", "2075550143"),
    Person("Sofia", "Nguyen", "sofia.nguyen@yahoo.com", "415 Cedar St", "Austin", "Texas", "78704", "5125550199"),
    Person("Marcus", "Bell", "marcus.bell@gmail.com",
           "1200 Lakeshore Dr", "Chicago", "Illinois", "60610", "3125550176"),
    Person("Priya", "Raman", "priya.raman@gmail.com", "37 Orchard Ln", "Edison", "New Jersey", "08817", "7325550112"),
    Person("Daniel", "Okafor", "dan.okafor@hotmail.com",
           "902 Pine Ridge Ct", "Atlanta", "Georgia", "30309", "4045550158"),
    Person("Hannah", "Schmidt", "hannah.schmidt@gmail.com",
           "19 Willow Way", "Madison", "Wisconsin", "53703", "6085550134"),
    Person("Carlos", "Mendez", "carlos.mendez@outlook.com",
           "5540 Sunset Blvd", "Los Angeles", "California", "90028", "3235550187"),
    Person("Grace", "Kim", "grace.kim@gmail.com", "77 Summit Ave", "Seattle", "Washington", "98122", "2065550121"),
    Person("Noah", "Patel", "noah.patel@yahoo.com", "230 Elm St", "Columbus", "Ohio", "43215", "6145550165"),
    Person("Olivia", "Brooks", "olivia.brooks@gmail.com",
           "14 Beacon Hill Pl", "Boston", "Massachusetts", "02108", "6175550190"),
    Person("Ethan", "Wright", "ethan.wright@icloud.com", "3801 Ocean Dr", "Miami", "Florida", "33140", "3055550142"),
    Person("Ava", "Rossi", "ava.rossi@gmail.com", "650 Aspen Ct", "Denver", "Colorado", "80203", "7205550118"),
    Person("Jamal", "Harris", "jamal.harris@outlook.com",
           "2217 Magnolia Ave", "Nashville", "Tennessee", "37203", "6155550107"),
    Person("Mia", "Fischer", "mia.fischer@gmail.com",
           "48 Riverbend Rd", "Minneapolis", "Minnesota", "55401", "6125550171"),
)

# Everyone in the seed shares one password, so that tests and tutorials can sign in as anyone.
SEED_PASSWORD = "Password.123"

# Nicknames of reviewers who wrote without an account.
GUEST_NICKNAMES: tuple[str, ...] = (
    "Kathy R.", "BargainHunter", "Jen", "Mike T.", "outdoorsy_dad", "Renee", "TomB", "Shopper in Ohio",
    "Lucia", "Big Sam", "NightOwlReader", "Dee", "Frank M.", "momof3", "Raj", "Chloe", "Pete the baker",
    "K. Williams", "HappyCamper", "Tasha", "Greg", "desk_warrior", "Ines", "Walt", "Bree", "Oscar",
    "Linh", "Mr. Fix-It", "Yuki", "Abby",
)

REVIEW_TITLES: dict[int, tuple[str, ...]] = {
    5: ("Exceeded my expectations", "Love it", "Worth every penny", "Best purchase this year", "Five stars",
        "Exactly what I needed", "Fantastic quality"),
    4: ("Very good, minor quibbles", "Solid choice", "Good value", "Does the job well", "Happy with it",
        "Would buy again"),
    3: ("It's okay", "Average", "Mixed feelings", "Decent but not great", "Fine for the price"),
    2: ("Disappointed", "Not as described", "Meh", "Expected more", "Cheaply made"),
    1: ("Broke after two weeks", "Waste of money", "Do not buy", "Returned it", "Very poor quality"),
}

# {thing}: the product noun; {purpose}: why they bought it; {aspect}: what they talk about; {weeks}: a number.
REVIEW_OPENINGS: dict[str, tuple[str, ...]] = {
    "good": (
        "I bought the {thing} {purpose} and it has been great.",
        "Been using the {thing} {purpose} for about {weeks} weeks now.",
        "Picked up the {thing} {purpose} after reading the reviews here.",
        "Ordered the {thing} {purpose}; it arrived two days early.",
    ),
    "mixed": (
        "I got the {thing} {purpose}.",
        "Bought the {thing} {purpose} and have used it for {weeks} weeks.",
        "The {thing} was an impulse buy {purpose}.",
    ),
    "bad": (
        "I ordered the {thing} {purpose} and regret it.",
        "Bought the {thing} {purpose}.",
        "Had high hopes for the {thing}, which I got {purpose}.",
    ),
}
REVIEW_MIDDLES: dict[str, tuple[str, ...]] = {
    "good": (
        "The {aspect} is better than I expected.",
        "The {aspect} is excellent and it feels well made.",
        "No complaints about the {aspect} at all.",
        "Quality feels solid for the price.",
        "Setup took less than five minutes.",
    ),
    "mixed": (
        "The {aspect} is fine, nothing special.",
        "The {aspect} could be better, but it works.",
        "It does what it says, although the {aspect} is only average.",
        "Good enough for occasional use.",
    ),
    "bad": (
        "The {aspect} was a real letdown.",
        "It stopped working properly after {weeks} weeks.",
        "The {aspect} is nowhere near what the description promised.",
        "It felt flimsy out of the box.",
    ),
}
REVIEW_CLOSINGS: dict[str, tuple[str, ...]] = {
    "good": ("Would recommend.", "I already ordered a second one.", "Great value.", "Very happy with it.", ""),
    "mixed": ("Might look for something else next time.", "Okay for the money.", "Three stars feels right.", ""),
    "bad": ("Returning it.", "Save your money.", "Customer service was no help either.", "Would not buy again."),
}

# Emma's order history: (created_at UTC, status, number of distinct products, wants an item with options).
# Dates and statuses are fixed so that questions like "how much did I spend in May 2023" have stable answers.
EMMA_ORDER_PLAN: tuple[tuple[str, str, int, bool], ...] = (
    ("2022-02-11 15:22:04", "complete", 2, False),
    ("2022-04-03 10:05:41", "complete", 3, True),
    ("2022-07-19 19:48:12", "canceled", 1, True),
    ("2022-09-28 08:31:55", "complete", 4, False),
    ("2022-12-06 21:14:30", "complete", 2, True),
    ("2023-02-14 12:02:18", "complete", 3, False),
    ("2023-05-04 17:40:09", "complete", 2, True),
    ("2023-05-21 09:12:47", "canceled", 1, False),
    ("2023-05-27 14:55:03", "complete", 3, True),
    ("2023-08-15 11:26:38", "processing", 2, True),
    ("2023-11-02 16:03:21", "pending", 2, False),
)
