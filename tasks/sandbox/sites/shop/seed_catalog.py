"""The shop's catalog as data: categories, product lines, brands, specs and option pools.

Every product is one `Item` line (noun, selling points, price range); the seed
builder picks a brand, a price, specs and options for it with a fixed random
seed. Brands are invented. Some words recur across categories on purpose
("Wireless", "Stainless Steel", "Running", "Bamboo", "LED", "Organic") so that a
search returns more than the obvious product.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLORS = (
    "Black", "White", "Navy Blue", "Charcoal Gray", "Forest Green",
    "Burgundy", "Sand Beige", "Sky Blue", "Coral Red", "Lavender",
)
APPAREL_SIZES = ("XS", "S", "M", "L", "XL", "XXL")
WOMEN_SHOE_SIZES = ("5", "6", "7", "8", "9", "10")
MEN_SHOE_SIZES = ("7", "8", "9", "10", "11", "12", "13")
BED_SIZES = ("Twin", "Full", "Queen", "King")
BRACE_SIZES = ("S", "M", "L", "XL")
HELMET_SIZES = ("S", "M", "L")
LIP_SHADES = ("Rosewood", "Brick Red", "Nude Pink", "Berry", "Coral")
FOUNDATION_SHADES = ("Fair", "Light", "Medium", "Tan", "Deep")
FLAVORS = ("Chocolate", "Vanilla", "Strawberry", "Salted Caramel")
GRINDS = ("Whole Bean", "Ground")

# Option names mapped to the pool of values a product draws 2-5 from (all, for sizes).
OPTION_POOLS: dict[str, tuple[str, ...]] = {
    "color": COLORS,
    "apparel": APPAREL_SIZES,
    "women_shoes": WOMEN_SHOE_SIZES,
    "men_shoes": MEN_SHOE_SIZES,
    "bed": BED_SIZES,
    "brace": BRACE_SIZES,
    "helmet": HELMET_SIZES,
    "lip": LIP_SHADES,
    "foundation": FOUNDATION_SHADES,
    "flavor": FLAVORS,
    "grind": GRINDS,
}
# Pool key -> the option's label on the product page.
OPTION_LABELS = {
    "color": "Color", "lip": "Color", "foundation": "Color",
    "apparel": "Size", "women_shoes": "Size", "men_shoes": "Size", "bed": "Size", "brace": "Size", "helmet": "Size",
    "flavor": "Flavor", "grind": "Grind",
}
# Sizes are offered in full; colours and flavours are a sample.
FULL_POOLS = {"apparel", "women_shoes", "men_shoes", "bed", "brace", "helmet", "grind"}


@dataclass(frozen=True)
class Item:
    noun: str  # "Wireless Over-Ear Headphones"
    features: str  # comma-separated selling points, also appended to the product name
    low: float  # price range in dollars
    high: float
    options: tuple[str, ...] = ()  # keys of OPTION_POOLS
    specs: tuple[tuple[str, str], ...] = ()  # fixed rows of the details table


@dataclass(frozen=True)
class Sub:
    name: str
    key: str
    materials: tuple[str, ...]
    aspects: tuple[str, ...]  # what reviewers talk about
    purposes: tuple[str, ...]  # why reviewers bought it
    pitches: tuple[str, ...]  # first sentence of a description
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Top:
    name: str
    key: str
    description: str
    brands: tuple[str, ...]
    subs: tuple[Sub, ...] = field(default_factory=tuple)


CATALOG: tuple[Top, ...] = (
    Top(
        "Electronics", "electronics", "Headphones, computer accessories, chargers and camera gear.",
        ("Auralis", "Voltique", "Kestrel", "Lumora", "Tidewave", "Zentrik"),
        (
            Sub(
                "Headphones & Earbuds", "headphones-earbuds",
                ("ABS Plastic and Protein Leather", "Aluminum and Silicone", "Matte Polycarbonate"),
                ("sound quality", "battery life", "fit", "microphone"),
                ("for my daily commute", "for working from home", "for the gym", "as a gift for my son"),
                ("made for long listening sessions at home or on the move",
                 "tuned for clear vocals and tight bass", "light enough to forget you are wearing it"),
                (
                    Item("Wireless Over-Ear Headphones", "Active Noise Cancelling, 40H Playtime, Bluetooth 5.3",
                         59, 189, ("color",), (("Battery Life", "40 Hours"), ("Connectivity", "Bluetooth 5.3"))),
                    Item("True Wireless Earbuds", "IPX5 Waterproof, Wireless Charging Case, Touch Controls",
                         19, 89, ("color",), (("Battery Life", "6 Hours (30 with case)"),)),
                    Item("Kids Headphones", "85dB Volume Limit, Foldable, Padded Headband", 12, 29, ("color",)),
                    Item("Open-Ear Sport Earphones", "Bone Conduction, Sweat Resistant, 8H Battery", 39, 129),
                    Item("Studio Monitor Headphones", "Closed-Back, 50mm Drivers, Detachable Coiled Cable",
                         49, 149, (), (("Driver Size", "50 mm"), ("Impedance", "38 Ohms"))),
                    Item("Wired Earbuds with Microphone", "In-Line Volume Control, Tangle-Free Flat Cable", 6, 19),
                    Item("Sleep Earbuds", "Ultra-Slim Side-Sleeper Design, White Noise Masking", 49, 119),
                ),
            ),
            Sub(
                "Computer Accessories", "computer-accessories",
                ("Aluminum Alloy", "ABS Plastic", "Rubber and Polyester"),
                ("build quality", "ergonomics", "setup", "compatibility"),
                ("for my home office", "for my laptop setup", "for gaming and work", "to replace an old one"),
                ("designed to make a desk setup tidier and more comfortable",
                 "a practical upgrade for laptops and desktops alike", "plug-and-play on Windows, macOS and Linux"),
                (
                    Item("Wireless Ergonomic Mouse", "2.4G USB Receiver, 6 Buttons, Adjustable DPI", 15, 45,
                         ("color",)),
                    Item("Mechanical Keyboard", "Hot-Swappable Brown Switches, RGB Backlit, 87 Keys", 39, 129),
                    Item("USB-C Hub 7-in-1", "4K HDMI, 100W Power Delivery, SD Card Reader", 19, 59,
                         (), (("Ports", "7"),)),
                    Item("Laptop Stand", "Adjustable Aluminum Riser for 10-17 Inch Laptops", 19, 49, ("color",)),
                    Item("Extended Mouse Pad", "Stitched Edges, Non-Slip Rubber Base, 31.5 x 15.7 Inch", 9, 24,
                         ("color",)),
                    Item("1080p Webcam with Microphone", "Auto Light Correction, Privacy Cover, Plug and Play", 25, 79),
                    Item("Portable SSD 1TB", "USB 3.2 Gen 2, Up to 1050MB/s, Shock Resistant", 69, 139,
                         (), (("Capacity", "1 TB"), ("Read Speed", "1050 MB/s"))),
                ),
            ),
            Sub(
                "Chargers & Power Banks", "chargers-power-banks",
                ("Fire-Retardant PC", "Aluminum Shell", "Braided Nylon"),
                ("charging speed", "size", "cable length", "heat"),
                ("for travel", "for my phone and tablet", "for camping trips", "for the car"),
                ("keeps phones, tablets and earbuds topped up wherever you are",
                 "built-in protection against overcharging and overheating", "compact enough for a jacket pocket"),
                (
                    Item("Portable Charger 10000mAh", "Slim Power Bank with USB-C Input and Output", 15, 35,
                         ("color",), (("Capacity", "10000 mAh"),)),
                    Item("Wireless Charging Pad", "15W Max Fast Charge, Non-Slip Surface", 12, 29),
                    Item("65W GaN USB-C Wall Charger", "3-Port Foldable Fast Charger for Laptops and Phones", 29, 55,
                         (), (("Output", "65 W"),)),
                    Item("Braided USB-C Cable 3-Pack", "6ft, 60W Fast Charging", 9, 19, ("color",)),
                    Item("Car Charger", "Dual USB-C PD 40W, Aluminum Shell", 11, 25),
                    Item("Solar Power Bank 20000mAh", "Waterproof, Built-in Flashlight, 2 USB Outputs", 25, 49,
                         (), (("Capacity", "20000 mAh"),)),
                    Item("Surge Protector Power Strip", "12 Outlets, 4 USB Ports, 6ft Extension Cord", 19, 39),
                ),
            ),
            Sub(
                "Camera & Photo", "camera-photo",
                ("Aluminum Alloy", "Water-Resistant Nylon", "Plastic and Glass"),
                ("image quality", "stability", "ease of use", "portability"),
                ("for vlogging", "for family photos", "for a trip to Iceland", "for product shots"),
                ("helps you get steadier, brighter, better organised shots",
                 "a dependable companion for photographers and creators", "easy to set up and easy to pack"),
                (
                    Item("Tripod 60 Inch", "Lightweight Aluminum with Phone Holder and Bluetooth Remote", 22, 59),
                    Item("Ring Light 12 Inch", "with Stand, 3 Color Modes, 10 Brightness Levels", 19, 45),
                    Item("Mirrorless Camera Bag", "Water-Resistant Shoulder Bag with Padded Dividers", 29, 69,
                         ("color",)),
                    Item("MicroSDXC Memory Card 128GB", "V30 U3, Up to 170MB/s Read", 12, 29,
                         (), (("Capacity", "128 GB"),)),
                    Item("Action Camera 4K", "Waterproof 40m, Image Stabilization, 2 Batteries", 69, 199),
                    Item("Digital Picture Frame 10.1 Inch", "WiFi, Touch Screen, Share Photos via App", 69, 129),
                ),
            ),
        ),
    ),
    Top(
        "Home & Kitchen", "home-kitchen", "Cookware, small appliances, bedding and storage for every room.",
        ("HearthLine", "Copperleaf", "Nestwell", "Mabel & Co.", "Ironbark"),
        (
            Sub(
                "Cookware", "cookware",
                ("Stainless Steel", "Hard-Anodized Aluminum", "Cast Iron", "Bamboo"),
                ("heat distribution", "weight", "cleanup", "durability"),
                ("for our new apartment", "to replace old pans", "for weekend cooking", "as a wedding gift"),
                ("made for everyday cooking, from quick eggs to slow braises",
                 "heats evenly and cleans up fast", "built to last for years in a busy kitchen"),
                (
                    Item("Nonstick Frying Pan Set", "8, 10 and 12 Inch, PFOA Free, Induction Compatible", 29, 69),
                    Item("Stainless Steel Saucepan 2 Quart", "Tri-Ply Base with Glass Lid", 24, 59,
                         (), (("Capacity", "2 Quarts"),)),
                    Item("Cast Iron Skillet 12 Inch", "Pre-Seasoned, Oven Safe to 500F", 19, 45),
                    Item("Enameled Dutch Oven 6 Quart", "Cast Iron with Lid, Dishwasher Safe", 49, 129,
                         ("color",), (("Capacity", "6 Quarts"),)),
                    Item("Bamboo Cutting Board Set", "3 Pieces with Juice Grooves", 15, 35),
                    Item("Chef Knife 8 Inch", "High Carbon Stainless Steel, Ergonomic Handle", 19, 89),
                    Item("Silicone Cooking Utensil Set", "12 Pieces, Heat Resistant, Wooden Handles", 15, 32,
                         ("color",)),
                ),
            ),
            Sub(
                "Small Appliances", "small-appliances",
                ("Stainless Steel", "BPA-Free Plastic", "Brushed Aluminum"),
                ("noise", "cleanup", "speed", "counter space"),
                ("for quick breakfasts", "for a small kitchen", "to replace a broken one", "for my parents"),
                ("saves time on the everyday tasks in your kitchen",
                 "simple controls and dependable results", "sized to sit on the counter without crowding it"),
                (
                    Item("Air Fryer 5.8 Quart", "1700W, 8 Presets, Nonstick Basket", 59, 129,
                         (), (("Capacity", "5.8 Quarts"), ("Wattage", "1700 W"))),
                    Item("Electric Kettle 1.7 Liter", "Stainless Steel, Auto Shut-Off, Boil-Dry Protection", 19, 49,
                         (), (("Capacity", "1.7 Liters"),)),
                    Item("Personal Blender", "Portable Smoothie Maker with 2 Travel Cups, 300W", 19, 45, ("color",)),
                    Item("Programmable Coffee Maker 12 Cup", "Glass Carafe, Keep Warm Plate", 29, 89,
                         (), (("Capacity", "12 Cups"),)),
                    Item("Stand Mixer 5.5 Quart", "6 Speeds, Tilt-Head, Dough Hook and Whisk", 99, 299,
                         ("color",), (("Capacity", "5.5 Quarts"),)),
                    Item("Rice Cooker 6 Cup", "Fuzzy Logic, Steamer Basket, Delay Timer", 39, 99),
                    Item("Espresso Machine", "15 Bar Pump, Milk Frother, 1.5L Water Tank", 119, 499,
                         (), (("Capacity", "1.5 Liters"),)),
                ),
            ),
            Sub(
                "Bedding & Bath", "bedding-bath",
                ("Viscose from Bamboo", "Turkish Cotton", "Microfiber", "Memory Foam"),
                ("softness", "fit", "washing", "temperature"),
                ("for our guest room", "because I sleep hot", "for my college dorm", "to refresh the bathroom"),
                ("soft, breathable and easy to care for",
                 "brings hotel comfort home at a fair price", "holds up to frequent washing"),
                (
                    Item("Bamboo Sheet Set", "Cooling, Deep Pocket, 4 Pieces", 39, 89, ("color", "bed")),
                    Item("Down Alternative Comforter", "All Season Quilted Duvet Insert", 35, 79, ("bed",)),
                    Item("Memory Foam Pillow 2-Pack", "Shredded Fill, Adjustable Loft", 29, 59),
                    Item("Turkish Cotton Bath Towels", "Set of 6, 600 GSM, Quick Dry", 29, 59, ("color",)),
                    Item("Weighted Blanket 15 lbs", "Glass Beads, Breathable Cotton Cover", 45, 99, ("color",)),
                    Item("Waterproof Mattress Protector", "Breathable, Noiseless, Deep Pocket", 19, 45, ("bed",)),
                    Item("Shower Curtain Liner", "Mildew Resistant, PEVA, 72 x 72 Inch", 8, 16),
                ),
            ),
            Sub(
                "Storage & Organization", "storage-organization",
                ("Non-Woven Fabric", "Bamboo", "BPA-Free Plastic", "Breathable Mesh"),
                ("sturdiness", "size", "assembly", "looks"),
                ("to organize my closet", "for the pantry", "for a small apartment", "for the kids' room"),
                ("turns cluttered shelves and closets into tidy, labelled space",
                 "stackable and easy to move around", "assembles in minutes without tools"),
                (
                    Item("Fabric Storage Cubes 6-Pack", "Foldable Bins with Handles, 11 Inch", 18, 35, ("color",)),
                    Item("Over-the-Door Shoe Organizer", "24 Pockets, Breathable Mesh", 9, 19),
                    Item("Bamboo Drawer Dividers", "Adjustable, Set of 4", 19, 39),
                    Item("Vacuum Storage Bags", "8 Jumbo Bags with Hand Pump", 15, 29),
                    Item("Clear Stackable Pantry Containers", "Airtight, BPA Free, Set of 10", 25, 49),
                ),
            ),
        ),
    ),
    Top(
        "Beauty & Personal Care", "beauty-personal-care", "Skin care, hair care, makeup and personal care.",
        ("Dewbloom", "Solenne", "Petal & Pine", "Clearmont", "Auric Beauty"),
        (
            Sub(
                "Skin Care", "skin-care",
                ("Glass Bottle with Dropper", "Recyclable Tube", "Airless Pump"),
                ("texture", "scent", "results", "absorption"),
                ("for my dry winter skin", "for sensitive skin", "as part of my night routine",
                 "after a dermatologist suggestion"),
                ("a gentle, effective step for a simple skin care routine",
                 "dermatologist tested and suitable for daily use", "lightweight, absorbs quickly and layers well"),
                (
                    Item("Hyaluronic Acid Serum", "Hydrating Face Serum with Vitamin B5, 1 fl oz", 9, 29,
                         (), (("Volume", "1 fl oz"),)),
                    Item("Daily Moisturizer SPF 30", "Oil-Free, Fragrance-Free, 3.4 fl oz", 12, 32,
                         (), (("Volume", "3.4 fl oz"),)),
                    Item("Vitamin C Brightening Cream", "with Niacinamide, 1.7 oz", 14, 39),
                    Item("Gentle Foaming Cleanser", "for Sensitive Skin, 16 fl oz", 8, 18),
                    Item("Retinol Night Cream", "Anti-Aging, with Shea Butter, 1.7 oz", 15, 45),
                    Item("Organic Clay Face Mask", "Kaolin and Activated Charcoal, 4 oz", 9, 24),
                    Item("Mineral Sunscreen Stick SPF 50", "Reef Friendly, Water Resistant 80 Minutes", 7, 16),
                ),
            ),
            Sub(
                "Hair Care", "hair-care",
                ("Recyclable Plastic Bottle", "Ceramic and Tourmaline", "Mulberry Silk"),
                ("results", "scent", "heat settings", "ease of use"),
                ("for my curly hair", "for color-treated hair", "for travel", "to cut down on frizz"),
                ("helps hair look healthier with less effort",
                 "salon-style results at home", "gentle on hair, tough on frizz"),
                (
                    Item("Argan Oil Shampoo and Conditioner Set", "Sulfate Free, 2 x 16 fl oz", 15, 35),
                    Item("Ionic Hair Dryer", "1875W, Diffuser and Concentrator, 3 Heat Settings", 29, 89,
                         ("color",), (("Wattage", "1875 W"),)),
                    Item("Ceramic Flat Iron 1 Inch", "Adjustable Temperature, Dual Voltage", 25, 69),
                    Item("Detangling Brush", "Flexible Bristles for Wet and Dry Hair", 6, 14, ("color",)),
                    Item("Leave-In Conditioner Spray", "Heat Protectant, 8 fl oz", 7, 18),
                    Item("Silk Scrunchies 6-Pack", "Mulberry Silk, No Damage", 9, 22, ("color",)),
                ),
            ),
            Sub(
                "Makeup", "makeup",
                ("Recyclable Packaging", "Synthetic Fibers", "Glass and Aluminum"),
                ("pigment", "staying power", "shade range", "packaging"),
                ("for everyday wear", "for my wedding day", "to try a new look", "for travel"),
                ("long-wearing color that stays put from morning to night",
                 "cruelty free and easy to blend", "a reliable staple for any makeup bag"),
                (
                    Item("Volumizing Mascara", "Waterproof, Jet Black", 6, 16),
                    Item("Matte Liquid Lipstick", "Long Lasting, Transfer Proof", 7, 18, ("lip",)),
                    Item("Eyeshadow Palette 18 Shades", "Neutral Matte and Shimmer", 12, 35),
                    Item("Makeup Brush Set 14 Pieces", "Synthetic Bristles with Travel Case", 12, 29),
                    Item("Liquid Foundation", "Medium Coverage, Natural Finish, 1 fl oz", 9, 36, ("foundation",)),
                    Item("Makeup Remover Cleansing Balm", "with Vitamin E, 3.4 oz", 10, 24),
                ),
            ),
            Sub(
                "Personal Care", "personal-care",
                ("ABS Plastic", "Bamboo", "Stainless Steel Foil"),
                ("battery life", "comfort", "cleaning", "value"),
                ("to replace a manual toothbrush", "for travel", "on my dentist's advice", "as a gift for my dad"),
                ("an easy upgrade to a daily routine",
                 "rechargeable, water resistant and travel friendly", "gentle, effective and simple to use"),
                (
                    Item("Rechargeable Electric Toothbrush", "5 Modes, 2 Brush Heads, Travel Case", 25, 79, ("color",)),
                    Item("Bamboo Toothbrushes 10-Pack", "Soft Bristles, Biodegradable Handles", 4, 14),
                    Item("Cordless Water Flosser", "300ml Tank, 4 Modes, IPX7", 29, 69),
                    Item("Electric Foil Shaver", "Wet and Dry, USB Rechargeable", 39, 119),
                    Item("Natural Deodorant", "Aluminum Free, Cedar and Sage, 2.65 oz", 7, 15),
                ),
            ),
        ),
    ),
    Top(
        "Sports & Outdoors", "sports-outdoors", "Fitness equipment, camping and hiking gear, cycling.",
        ("Trailborn", "Summitry", "Peakline", "Ridgeback", "Velocore"),
        (
            Sub(
                "Fitness & Exercise", "fitness-exercise",
                ("TPE Foam", "Cast Iron", "Natural Latex", "Stainless Steel", "EVA Foam"),
                ("grip", "durability", "size", "value"),
                ("for my home gym", "for yoga classes", "for physical therapy", "to stay active at home"),
                ("built for daily workouts at home or at the gym",
                 "a compact way to add strength and mobility training",
                 "made to take a beating, session after session"),
                (
                    Item("Yoga Mat 6mm", "Non-Slip, with Carrying Strap", 18, 45, ("color",),
                         (("Thickness", "6 mm"),)),
                    Item("Adjustable Dumbbells 25 lb Pair", "Quick Lock Weight Plates", 79, 249,
                         (), (("Weight", "25 lb each"),)),
                    Item("Resistance Bands Set", "5 Levels, Door Anchor and Handles", 12, 29),
                    Item("Foam Roller 18 Inch", "High Density for Muscle Recovery", 12, 29, ("color",)),
                    Item("Jump Rope", "Tangle-Free Ball Bearings, Adjustable Length", 7, 16),
                    Item("Stainless Steel Water Bottle 32 oz", "Vacuum Insulated, Leak Proof Lid", 15, 35,
                         ("color",), (("Capacity", "32 fl oz"),)),
                    Item("Indoor Cycling Bike", "Magnetic Resistance, LCD Monitor, 330 lb Capacity", 249, 899,
                         (), (("Max User Weight", "330 lb"),)),
                ),
            ),
            Sub(
                "Camping & Hiking", "camping-hiking",
                ("Ripstop Nylon", "Aluminum", "Polyester", "Stainless Steel"),
                ("weight", "weather protection", "packability", "setup"),
                ("for backpacking trips", "for car camping", "for a national park trip", "for scout camp"),
                ("trail-ready gear that packs small and stands up to weather",
                 "light on the back and quick to set up", "tested on long weekends in the backcountry"),
                (
                    Item("2-Person Backpacking Tent", "Waterproof, Lightweight, Easy Setup", 69, 189, ("color",),
                         (("Capacity", "2 Persons"), ("Weight", "4.3 lb"))),
                    Item("Mummy Sleeping Bag 20F", "Compression Sack Included", 39, 99),
                    Item("LED Headlamp 2-Pack", "Rechargeable, 1200 Lumens, Motion Sensor", 15, 29),
                    Item("Hiking Backpack 40L", "Rain Cover, Hydration Compatible", 39, 99, ("color",),
                         (("Capacity", "40 Liters"),)),
                    Item("Portable Camping Stove", "Butane Single Burner with Carrying Case", 25, 59),
                    Item("Trekking Poles", "Collapsible Aluminum, Cork Grips, Pair", 25, 69),
                    Item("Insulated Camping Mug 12 oz", "Stainless Steel with Lid", 12, 24, ("color",)),
                ),
            ),
            Sub(
                "Cycling", "cycling",
                ("Polycarbonate and EPS Foam", "Aluminum Alloy", "Lycra", "Hardened Steel"),
                ("visibility", "fit", "mounting", "build quality"),
                ("for commuting to work", "for weekend rides", "for my daughter's new bike", "for gravel rides"),
                ("makes every ride safer and more comfortable",
                 "quick to fit, hard to knock loose", "road tested in rain and heat"),
                (
                    Item("Bike Helmet", "Adjustable Fit, LED Rear Light, CPSC Certified", 29, 79,
                         ("color", "helmet")),
                    Item("Bike Light Set", "USB Rechargeable Front and Rear, Waterproof", 15, 35),
                    Item("Mini Bike Pump", "Presta and Schrader, 120 PSI", 12, 25),
                    Item("Padded Cycling Shorts", "3D Gel Padding, Quick Dry", 19, 39, ("color", "apparel")),
                    Item("Bike Phone Mount", "360 Rotation, Fits 4.7-7 Inch Phones", 12, 25),
                    Item("Cable Bike Lock", "5ft Coiled with Key, Mounting Bracket", 12, 29),
                    Item("Cycling Gloves", "Half Finger, Gel Padded Palms", 12, 25, ("color", "apparel")),
                ),
            ),
        ),
    ),
    Top(
        "Clothing, Shoes & Jewelry", "clothing-shoes-jewelry",
        "Women's and men's clothing, shoes, jewelry and accessories.",
        ("Northpine", "Harbor & Hale", "Lunelle", "Wovenly", "Stride Theory"),
        (
            Sub(
                "Women's Clothing", "womens-clothing",
                ("Cotton Blend", "Polyester and Spandex", "Linen", "Recycled Nylon"),
                ("fit", "fabric", "sizing", "color"),
                ("for summer vacation", "for the office", "for workouts", "for everyday wear"),
                ("comfortable all day, from the office to the weekend",
                 "a versatile piece that pairs with almost anything", "soft fabric with a flattering cut"),
                (
                    Item("Women's Casual Summer Dress", "Short Sleeve, Pockets, Flowy A-Line", 22, 45,
                         ("color", "apparel")),
                    Item("Women's High Waist Yoga Leggings", "Tummy Control, 4-Way Stretch", 15, 32,
                         ("color", "apparel")),
                    Item("Women's Lightweight Puffer Jacket", "Packable, Water-Resistant", 39, 89,
                         ("color", "apparel")),
                    Item("Women's Cable Knit Cardigan Sweater", "Open Front, Long Sleeve", 29, 55,
                         ("color", "apparel")),
                    Item("Women's Crewneck T-Shirt 3-Pack", "Classic Fit, Soft Cotton Blend", 18, 32,
                         ("color", "apparel")),
                    Item("Women's Running Jacket", "Reflective, Full Zip, Thumbholes", 29, 69, ("color", "apparel")),
                    Item("Women's Wide Leg Linen Pants", "Drawstring Waist, Pockets", 25, 49, ("color", "apparel")),
                ),
            ),
            Sub(
                "Men's Clothing", "mens-clothing",
                ("Cotton", "Merino Wool", "Polyester and Spandex", "Cotton and Elastane"),
                ("fit", "fabric", "sizing", "stitching"),
                ("for work", "for hiking", "for running", "for everyday wear"),
                ("a wardrobe staple with a modern fit",
                 "holds its shape wash after wash", "built for comfort without looking sloppy"),
                (
                    Item("Men's Slim Fit Dress Shirt", "Wrinkle Free, Long Sleeve", 22, 45, ("color", "apparel")),
                    Item("Men's Fleece Pullover Hoodie", "Kangaroo Pocket, Midweight", 25, 49, ("color", "apparel")),
                    Item("Men's Running Shorts", "7 Inch, Quick Dry with Liner", 15, 29, ("color", "apparel")),
                    Item("Men's Stretch Chino Pants", "Straight Fit, Flat Front", 29, 55, ("color", "apparel")),
                    Item("Men's Merino Wool Hiking Socks 4-Pack", "Cushioned Crew Length", 18, 32,
                         ("apparel",), (("Material", "Merino Wool"),)),
                    Item("Men's Rain Jacket", "Waterproof, Packable Hood", 39, 99, ("color", "apparel")),
                    Item("Men's Performance Polo Shirt", "Moisture Wicking, UPF 50", 18, 35, ("color", "apparel")),
                ),
            ),
            Sub(
                "Shoes", "shoes",
                ("Breathable Mesh", "Full Grain Leather", "Canvas", "Suede and Rubber"),
                ("comfort", "sizing", "support", "grip"),
                ("for running", "for long walks", "for work", "for winter"),
                ("cushioned for long days on your feet",
                 "a grippy outsole and a snug, supportive fit", "broken in from the first wear"),
                (
                    Item("Women's Running Shoes", "Lightweight Breathable Mesh Sneakers", 39, 99,
                         ("color", "women_shoes")),
                    Item("Men's Trail Running Shoes", "Grippy Outsole, Waterproof Upper", 55, 129,
                         ("color", "men_shoes")),
                    Item("Men's Leather Chelsea Boots", "Elastic Side Panels, Pull Tab", 69, 149,
                         ("color", "men_shoes"), (("Material", "Full Grain Leather"),)),
                    Item("Women's Memory Foam Slippers", "Plush Lining, Anti-Slip Sole", 15, 29,
                         ("color", "women_shoes")),
                    Item("Unisex Canvas Low Top Sneakers", "Classic Lace-Up", 25, 55, ("color", "men_shoes"),
                         (("Material", "Canvas"),)),
                    Item("Women's Waterproof Snow Boots", "Faux Fur Lined, Mid Calf", 45, 99,
                         ("color", "women_shoes")),
                    Item("Men's Slide Sandals", "Cushioned Footbed, Quick Dry", 15, 35, ("color", "men_shoes")),
                ),
            ),
            Sub(
                "Jewelry & Accessories", "jewelry-accessories",
                ("925 Sterling Silver", "Stainless Steel", "Genuine Leather", "14K Gold Plated Brass"),
                ("look", "quality", "packaging", "size"),
                ("as a birthday gift", "for my anniversary", "for everyday wear", "for travel"),
                ("a polished finishing touch for everyday outfits",
                 "gift-ready in a presentation box", "hypoallergenic and tarnish resistant"),
                (
                    Item("Sterling Silver Hoop Earrings", "Hypoallergenic, 30mm", 19, 45,
                         (), (("Material", "925 Sterling Silver"),)),
                    Item("Stainless Steel Minimalist Watch", "Mesh Band, Japanese Quartz", 39, 129, ("color",),
                         (("Material", "Stainless Steel"),)),
                    Item("Gold Plated Layered Necklace", "Dainty Paperclip Chain", 15, 35),
                    Item("Men's Leather Bifold Wallet", "RFID Blocking, 8 Card Slots", 19, 49, ("color",),
                         (("Material", "Genuine Leather"),)),
                    Item("Polarized Sunglasses", "UV400 Protection, Lightweight Frame", 15, 45, ("color",)),
                    Item("Cubic Zirconia Tennis Bracelet", "Rhodium Plated, 7 Inch", 25, 69),
                    Item("Canvas Tote Bag", "Zipper Top, Inner Pockets", 15, 32, ("color",)),
                ),
            ),
        ),
    ),
    Top(
        "Health & Household", "health-household", "Vitamins, household supplies and first aid.",
        ("Vitalis Labs", "PureCove", "Wellnest", "Greenfield Health", "Brightway"),
        (
            Sub(
                "Vitamins & Supplements", "vitamins-supplements",
                ("Softgel", "Vegetable Capsule", "Powder", "Gummy"),
                ("taste", "value", "results", "capsule size"),
                ("for the winter months", "on my doctor's advice", "after workouts", "for the whole family"),
                ("third-party tested for purity and potency",
                 "an easy daily habit to support overall wellness", "made without artificial colors or fillers"),
                (
                    Item("Vitamin D3 5000 IU", "360 Softgels, Supports Bone and Immune Health", 9, 22,
                         (), (("Count", "360 Softgels"),)),
                    Item("Magnesium Glycinate 400mg", "180 Capsules, Gentle on the Stomach", 12, 28,
                         (), (("Count", "180 Capsules"),)),
                    Item("Omega-3 Fish Oil", "Triple Strength, 120 Softgels, Lemon Flavor", 15, 35),
                    Item("Probiotic 50 Billion CFU", "Shelf Stable, 30 Capsules", 19, 39),
                    Item("Whey Protein Powder", "2 lb, 24g Protein per Serving", 25, 59, ("flavor",),
                         (("Net Weight", "2 lb"),)),
                    Item("Elderberry Gummies", "Zinc and Vitamin C, 60 Count", 11, 24),
                    Item("Collagen Peptides Powder", "Unflavored, 16 oz", 18, 39),
                ),
            ),
            Sub(
                "Household Supplies", "household-supplies",
                ("Plant-Based Formula", "Microfiber", "Recycled Paper", "Bamboo Fiber"),
                ("value", "scent", "strength", "how long it lasts"),
                ("for a family of five", "to stock up", "for our rental property", "for the office kitchen"),
                ("keeps the house clean with less waste",
                 "a dependable everyday essential at a bulk price", "tough on messes, gentle on surfaces"),
                (
                    Item("Laundry Detergent Pods", "Free and Clear, 81 Count", 15, 29),
                    Item("Paper Towels 12 Rolls", "Select-a-Size, Double Rolls", 19, 34),
                    Item("Reusable Microfiber Cleaning Cloths", "24 Pack, Lint Free", 12, 24),
                    Item("All-Purpose Cleaner Spray", "Plant-Based, Lavender, 3 x 32 fl oz", 11, 22),
                    Item("Dishwasher Tablets", "Lemon Scent, 90 Count", 14, 29),
                    Item("Trash Bags 13 Gallon", "Drawstring, Odor Control, 120 Count", 15, 28),
                    Item("Bamboo Toilet Paper", "24 Double Rolls, Septic Safe", 22, 39),
                ),
            ),
            Sub(
                "Medical Supplies & First Aid", "medical-first-aid",
                ("Medical Grade Plastic", "Neoprene", "Nylon Case", "Non-Woven Fabric"),
                ("accuracy", "ease of use", "comfort", "quality"),
                ("for our family road trips", "to keep in the car", "for my elderly parents", "after knee surgery"),
                ("a sensible item to keep at home, at work or in the car",
                 "clear readings and simple one-button operation", "trusted by families and caregivers"),
                (
                    Item("First Aid Kit 250 Pieces", "for Home, Car and Travel", 19, 39),
                    Item("Digital Thermometer", "Fast 10 Second Reading, Fever Alarm", 8, 19),
                    Item("Upper Arm Blood Pressure Monitor", "Large Cuff, 2 User Memory", 25, 59),
                    Item("Pulse Oximeter", "Fingertip SpO2 Monitor with Lanyard", 15, 35),
                    Item("Knee Brace with Side Stabilizers", "Breathable Compression Sleeve", 15, 35, ("brace",)),
                    Item("Heating Pad", "Extra Large 12 x 24 Inch, Auto Shut-Off", 19, 45),
                    Item("Disposable Face Masks 100 Pack", "3-Ply, Ear Loops", 8, 16),
                ),
            ),
        ),
    ),
    Top(
        "Grocery & Gourmet Food", "grocery-gourmet-food", "Snacks, coffee and tea, and pantry staples.",
        ("Farmstead Pantry", "Golden Acre", "Bellwood", "Sunny Hollow", "Roastwell"),
        (
            Sub(
                "Snacks", "snacks",
                ("Resealable Bag", "Recyclable Box", "Individual Packs"),
                ("taste", "freshness", "value", "portion size"),
                ("for road trips", "for the kids' lunches", "for the office", "as a movie night treat"),
                ("a satisfying snack for lunch boxes, desks and road trips",
                 "made with simple ingredients you can pronounce", "packed fresh and sealed for crunch"),
                (
                    Item("Dark Chocolate Sea Salt Almonds", "Resealable Bag, 16 oz", 8, 16),
                    Item("Organic Trail Mix", "Nuts, Seeds and Dried Cranberries, 24 oz", 10, 19),
                    Item("Kettle Cooked Potato Chips Variety Pack", "30 Bags", 14, 24),
                    Item("Protein Bars 12 Count", "20g Protein, Gluten Free", 15, 28, ("flavor",)),
                    Item("Freeze-Dried Strawberries", "No Sugar Added, 6 Pack", 12, 22),
                    Item("Whole Grain Crackers", "Sea Salt, 3 Boxes", 7, 14),
                    Item("Gummy Bears 5 lb Bulk Bag", "Assorted Fruit Flavors", 13, 26),
                ),
            ),
            Sub(
                "Coffee & Tea", "coffee-tea",
                ("Foil Bag with Valve", "Tin", "Recyclable Pods"),
                ("flavor", "aroma", "freshness", "strength"),
                ("for my morning routine", "for the office", "as a gift for a coffee lover", "for cold brew"),
                ("roasted and packed for a full, fresh flavor",
                 "smooth and balanced, morning or afternoon", "sourced from small farms and packed fresh"),
                (
                    Item("Medium Roast Coffee", "Colombian Single Origin, 2 lb Bag", 14, 29, ("grind",)),
                    Item("Organic Green Tea Bags", "100 Count, Individually Wrapped", 7, 16),
                    Item("Cold Brew Coffee Concentrate", "Unsweetened, 32 fl oz", 9, 18),
                    Item("Chai Tea Latte Mix", "Spiced, 2 lb Canister", 10, 19),
                    Item("Espresso Pods 60 Count", "Dark Roast, Compatible Capsules", 19, 36),
                    Item("Loose Leaf Earl Grey Tea", "with Bergamot, 8 oz Tin", 9, 19),
                    Item("Instant Coffee Packets", "Decaf, 50 Single Serve Sticks", 8, 15),
                ),
            ),
            Sub(
                "Pantry Staples", "pantry-staples",
                ("Glass Bottle", "Resealable Pouch", "Glass Jar", "Paper Box"),
                ("flavor", "quality", "value", "packaging"),
                ("for everyday cooking", "for holiday baking", "to stock the pantry", "for meal prep"),
                ("a pantry essential for everyday cooking",
                 "simple, high quality ingredients", "the kind of staple you reach for every day"),
                (
                    Item("Extra Virgin Olive Oil", "Cold Pressed, 1 Liter", 11, 24, (), (("Volume", "1 Liter"),)),
                    Item("Organic Quinoa", "Tri-Color, 4 lb", 12, 22),
                    Item("Pure Maple Syrup Grade A", "Amber Rich, 32 fl oz", 15, 29),
                    Item("Himalayan Pink Salt Grinder", "Refillable, 10 oz", 4, 9),
                    Item("Raw Honey", "Unfiltered Wildflower, 2 lb", 12, 24),
                    Item("Spaghetti Pasta 8-Pack", "Bronze Cut, Durum Wheat, 16 oz Each", 12, 22),
                    Item("Organic Peanut Butter", "Creamy, No Sugar Added, 2 x 16 oz", 9, 17),
                ),
            ),
        ),
    ),
    Top(
        "Office Products", "office-products", "Pens, paper, notebooks and office furniture.",
        ("Inkwell & Co.", "Deskwise", "Paperlane", "Ledgerly"),
        (
            Sub(
                "Writing Supplies", "writing-supplies",
                ("Plastic Barrel", "Brass", "Water-Based Ink"),
                ("ink flow", "grip", "color", "value"),
                ("for journaling", "for school", "for meeting notes", "for sketching"),
                ("smooth writing for notes, lists and sketches",
                 "reliable ink that dries fast and does not smear", "comfortable to hold through long sessions"),
                (
                    Item("Gel Pens 24-Pack", "Fine Point 0.7mm, Assorted Colors", 9, 18),
                    Item("Fountain Pen", "Medium Nib with Converter, Gift Box", 19, 69, ("color",)),
                    Item("Mechanical Pencils Set", "0.5mm with Lead Refills and Erasers", 7, 15),
                    Item("Dry Erase Markers 12-Pack", "Low Odor, Chisel Tip", 9, 17),
                    Item("Highlighters 10-Pack", "Pastel Colors, Smear Proof", 6, 13),
                    Item("Fine Liner Drawing Pens", "Archival Ink, 8 Sizes", 11, 22),
                ),
            ),
            Sub(
                "Paper & Notebooks", "paper-notebooks",
                ("Acid-Free Paper", "Genuine Leather Cover", "Recycled Paper"),
                ("paper quality", "binding", "size", "bleed-through"),
                ("for bullet journaling", "for college classes", "for the office printer", "for planning the year"),
                ("thick paper that takes ink without bleeding",
                 "organised pages for notes, plans and ideas", "lies flat and stands up to daily use"),
                (
                    Item("Hardcover Dotted Journal", "A5, 160 Pages, 120gsm", 11, 24, ("color",)),
                    Item("Spiral Notebooks 5-Pack", "College Ruled, 100 Sheets Each", 9, 18),
                    Item("Copy Paper 5 Reams", "Letter Size, 92 Bright, 2500 Sheets", 29, 49),
                    Item("Sticky Notes 24 Pads", "3 x 3 Inch, Bright Colors", 8, 15),
                    Item("Leather Refillable Journal", "Handmade, Lined Paper, 8 x 6 Inch", 24, 45,
                         ("color",), (("Material", "Genuine Leather Cover"),)),
                    Item("Undated Weekly Planner", "Goal Setting Pages, Hardcover", 14, 28),
                ),
            ),
            Sub(
                "Office Furniture", "office-furniture",
                ("Steel Frame and Mesh", "Engineered Wood and Steel", "Aluminum Alloy"),
                ("assembly", "stability", "comfort", "size"),
                ("for my home office", "for long work days", "for a small room", "to fix my posture"),
                ("a sturdy, comfortable base for long work days",
                 "assembles in under an hour with the included tools", "designed around good posture"),
                (
                    Item("Ergonomic Office Chair", "Lumbar Support, Adjustable Armrests, Mesh Back", 149, 399,
                         ("color",), (("Max User Weight", "300 lb"),)),
                    Item("Electric Standing Desk 55 Inch", "Height Adjustable, Memory Presets", 229, 599,
                         (), (("Desk Size", "55 x 28 Inches"),)),
                    Item("LED Desk Lamp", "Dimmable, USB Charging Port, Eye-Caring", 19, 49, ("color",)),
                    Item("Monitor Arm", "Single Gas Spring, Fits 17-32 Inch Screens", 29, 79),
                    Item("Under Desk Footrest", "Ergonomic Foam with Washable Cover", 19, 39),
                    Item("Rolling File Cabinet", "3 Drawers with Lock", 89, 199),
                    Item("L-Shaped Corner Desk", "Large Workstation with Storage Shelves", 129, 349),
                ),
            ),
        ),
    ),
    Top(
        "Video Games", "video-games", "Controllers, gaming headsets and PC gaming gear.",
        ("Pixelforge", "Nexplay", "Rogue Arc", "Hyperion Gear"),
        (
            Sub(
                "Controllers & Accessories", "controllers-accessories",
                ("ABS Plastic", "Silicone", "EVA Hard Shell"),
                ("responsiveness", "battery life", "build quality", "compatibility"),
                ("for my son's console", "for couch co-op", "for racing games", "as a backup"),
                ("responsive controls for long gaming sessions",
                 "works out of the box with PC and popular consoles", "built to survive enthusiastic play"),
                (
                    Item("Wireless Game Controller", "for PC and Switch, Turbo, Dual Vibration", 22, 59, ("color",)),
                    Item("Controller Charging Station", "Dual Dock with LED Indicator", 15, 29),
                    Item("Thumb Grips 8-Pack", "Silicone Analog Stick Covers", 3, 4),
                    Item("Arcade Fight Stick", "Full Size, Mechanical Buttons", 59, 149),
                    Item("Racing Wheel with Pedals", "900 Degree Rotation, Force Feedback", 149, 349),
                    Item("Carrying Case for Handheld Console", "Hard Shell, 20 Game Slots", 12, 25, ("color",)),
                ),
            ),
            Sub(
                "Gaming Headsets", "gaming-headsets",
                ("Plastic and Memory Foam", "Aluminum Frame", "Protein Leather"),
                ("sound quality", "microphone", "comfort", "battery life"),
                ("for online matches", "for streaming", "for late night gaming", "for team chat"),
                ("clear chat and immersive sound for long sessions",
                 "comfortable enough for all-night raids", "a clear mic your teammates will thank you for"),
                (
                    Item("Wireless Gaming Headset", "Low Latency 2.4GHz, Detachable Mic, 30H Battery", 59, 159,
                         ("color",), (("Battery Life", "30 Hours"),)),
                    Item("Wired Gaming Headset", "7.1 Surround Sound, Noise Cancelling Mic", 25, 69),
                    Item("Headset Stand", "RGB Base with USB Hub", 19, 39),
                    Item("Replacement Ear Pads", "Memory Foam, Cooling Gel", 12, 25),
                    Item("USB Streaming Microphone", "Cardioid Condenser, Mute Button, Shock Mount", 39, 129),
                    Item("Gaming Earbuds", "Dual Microphones, 3.5mm, In-Line Controls", 15, 35),
                ),
            ),
            Sub(
                "PC Gaming", "pc-gaming",
                ("ABS Plastic and Aluminum", "Rubber and Cloth", "PU Leather and Steel"),
                ("responsiveness", "lighting", "comfort", "value"),
                ("for my first gaming PC", "for competitive shooters", "to upgrade my setup", "for streaming"),
                ("precision and speed for competitive play",
                 "customisable lighting and programmable controls", "a solid upgrade for any gaming desk"),
                (
                    Item("RGB Gaming Mouse", "16000 DPI, 8 Programmable Buttons", 25, 79),
                    Item("Gaming Keyboard", "Mechanical Red Switches, Wrist Rest", 49, 149),
                    Item("XXL Gaming Mouse Pad", "RGB Edge Lighting, 35 x 15 Inch", 19, 39),
                    Item("27 Inch Gaming Monitor", "165Hz, 1ms, QHD IPS", 229, 449,
                         (), (("Screen Size", "27 Inches"), ("Refresh Rate", "165 Hz"))),
                    Item("Gaming Chair", "Reclining with Footrest and Lumbar Pillow", 129, 299, ("color",)),
                    Item("Laptop Cooling Pad", "5 Fans, Adjustable Height", 22, 45),
                ),
            ),
        ),
    ),
    Top(
        "Patio, Lawn & Garden", "patio-lawn-garden", "Gardening tools, outdoor lighting, grills and patio furniture.",
        ("Greenthumb", "Fernway", "Sunhaven", "Oakridge Outdoor", "Emberly"),
        (
            Sub(
                "Gardening & Lawn Care", "gardening-lawn-care",
                ("Aluminum", "Galvanized Steel", "Stainless Steel", "Recycled Plastic"),
                ("durability", "ease of use", "size", "value"),
                ("for my vegetable garden", "for a new backyard", "for container gardening", "for spring cleanup"),
                ("makes garden chores quicker and easier on the hands",
                 "built for seasons of digging, pruning and watering", "a practical helper for yards big and small"),
                (
                    Item("Garden Tool Set 9 Pieces", "Heavy Duty Aluminum with Storage Bag", 25, 59),
                    Item("Expandable Garden Hose 100 ft", "with 10 Function Spray Nozzle", 25, 59,
                         (), (("Length", "100 Feet"),)),
                    Item("Raised Garden Bed Kit", "Galvanized Steel, 8 x 4 x 1 ft", 49, 129),
                    Item("Pruning Shears", "Bypass Blade, Stainless Steel", 12, 29),
                    Item("Organic Potting Mix 16 Qt", "for Indoor and Outdoor Plants", 9, 18,
                         (), (("Volume", "16 Quarts"),)),
                    Item("Self-Watering Planters 3-Pack", "12 Inch, with Drainage", 19, 39, ("color",)),
                    Item("Cordless Leaf Blower", "20V, Battery and Charger Included", 59, 149),
                ),
            ),
            Sub(
                "Outdoor Lighting", "outdoor-lighting",
                ("Stainless Steel and Glass", "ABS Plastic", "Die-Cast Aluminum"),
                ("brightness", "battery life", "weather resistance", "installation"),
                ("for our backyard path", "for the patio", "for the driveway", "for a garden party"),
                ("lights up paths and patios with no wiring required",
                 "weatherproof and ready for year-round use", "warm light that makes outdoor evenings last"),
                (
                    Item("Solar Pathway Lights 8-Pack", "Warm White LED, Stainless Steel", 22, 45),
                    Item("Outdoor String Lights 48 ft", "Shatterproof LED Bulbs, Dimmable", 25, 59),
                    Item("Motion Sensor Flood Light", "LED, 3000 Lumens, IP65 Waterproof", 29, 69,
                         (), (("Brightness", "3000 Lumens"),)),
                    Item("Solar Lanterns 2-Pack", "Hanging, Flickering Flame Effect", 19, 39),
                    Item("Landscape Spotlights 4-Pack", "Low Voltage, Adjustable Angle", 39, 89),
                    Item("Solar Fence Post Cap Lights", "for 4x4 Posts, 4 Pack", 25, 45),
                ),
            ),
            Sub(
                "Grills & Outdoor Cooking", "grills-outdoor-cooking",
                ("Porcelain-Coated Steel", "Stainless Steel", "Cast Iron", "Heavy Duty Polyester"),
                ("heat control", "assembly", "cleanup", "build quality"),
                ("for summer cookouts", "for tailgating", "for camping", "for our new deck"),
                ("everything you need for a great cookout",
                 "even heat and easy cleanup after every barbecue", "sturdy enough for weekly grilling"),
                (
                    Item("Portable Charcoal Grill", "14 Inch Tabletop Kettle", 29, 69),
                    Item("Stainless Steel Grill Tool Set", "20 Pieces with Aluminum Case", 25, 59),
                    Item("Pellet Smoker Grill", "Wood Fired, Digital Controller, 700 sq in", 399, 899,
                         (), (("Cooking Area", "700 Square Inches"),)),
                    Item("Grill Cover 58 Inch", "Heavy Duty Waterproof", 19, 39),
                    Item("Outdoor Pizza Oven", "Propane Powered, 12 Inch Stone", 199, 449),
                    Item("Instant Read Meat Thermometer", "Waterproof, Backlit, Magnetic", 12, 29),
                    Item("Grill Brush and Scraper", "Bristle Free, 18 Inch Handle", 12, 24),
                ),
            ),
            Sub(
                "Patio Furniture", "patio-furniture",
                ("PE Wicker and Steel", "Poly Lumber", "Olefin Fabric", "Textilene and Steel"),
                ("comfort", "assembly", "weather resistance", "looks"),
                ("for our patio", "for the balcony", "for the pool deck", "for the backyard"),
                ("turns a patio into a place to linger",
                 "weather resistant and easy to keep clean", "comfortable seating built for the outdoors"),
                (
                    Item("Patio Conversation Set 4 Pieces", "Wicker Rattan with Cushions", 229, 549, ("color",)),
                    Item("Zero Gravity Lounge Chair", "Folding, Adjustable, with Cup Holder", 59, 129, ("color",)),
                    Item("Outdoor Throw Pillows 2-Pack", "Waterproof, 18 x 18 Inch", 19, 39, ("color",)),
                    Item("Hammock with Stand", "Double Size, 450 lb Capacity", 89, 199),
                    Item("Patio Umbrella 9 ft", "Market Table Umbrella with Tilt and Crank", 39, 99, ("color",)),
                    Item("Adirondack Chair", "Weather Resistant Poly Lumber", 149, 299, ("color",)),
                ),
            ),
        ),
    ),
)
