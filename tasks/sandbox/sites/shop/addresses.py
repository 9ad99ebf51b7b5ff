"""Address forms (checkout and address book) with Magento's field names."""

from __future__ import annotations

import sqlite3

COUNTRIES = {
    "US": "United States",
    "CA": "Canada",
    "MX": "Mexico",
    "GB": "United Kingdom",
    "DE": "Germany",
    "FR": "France",
    "AU": "Australia",
    "JP": "Japan",
}

# (form field, stored key, label)
ADDRESS_FORM = (
    ("firstname", "firstname", "First Name"),
    ("lastname", "lastname", "Last Name"),
    ("street[0]", "street", "Street Address"),
    ("city", "city", "City"),
    ("region", "region", "State/Province"),
    ("postcode", "postcode", "Zip/Postal Code"),
    ("country_id", "country_id", "Country"),
    ("telephone", "telephone", "Phone Number"),
)


def read_address(form) -> tuple[dict[str, str], dict[str, str]]:
    """Values by stored key, and an error message by form field for each bad or missing value."""
    values: dict[str, str] = {}
    errors: dict[str, str] = {}
    for field_name, key, _label in ADDRESS_FORM:
        value = (form.get(field_name) or "").strip()
        values[key] = value
        if not value:
            errors[field_name] = "This is a required field."
    if values["country_id"] and values["country_id"] not in COUNTRIES:
        errors["country_id"] = "Please select a country from the list."
    return values, errors


def address_values(row: sqlite3.Row | None) -> dict[str, str]:
    if row is None:
        return {key: ("US" if key == "country_id" else "") for _f, key, _l in ADDRESS_FORM}
    return {key: row[key] for _f, key, _l in ADDRESS_FORM}


def one_line(values) -> str:
    return (
        f"{values['street']}, {values['city']}, {values['region']} {values['postcode']}, "
        f"{COUNTRIES.get(values['country_id'], values['country_id'])}"
    )
