"""Seeded submissions per forum: (title, url or None, markdown body or None).

Several posts deliberately share words across forums (coffee, battery, headphones,
guide, history, instrument) so that search has to match words, not just forums.
"""

Post = tuple[str, str | None, str | None]

POSTS: dict[str, list[Post]] = {
    "AskReddit": [
        ("What's a skill you learned in under a week that still pays off years later?", None, None),
        (
            "People who switched careers after 30, what made you finally do it?",
            None,
            "I'm 34 and stuck in logistics. Curious how others made the jump and whether it was worth it.",
        ),
        ("What is the best piece of advice a stranger ever gave you?", None, None),
        (
            "What everyday item is way better quality when you spend a little more?",
            None,
            "Thinking of things like shoes, mattresses and kitchen knives. Where does the extra money actually matter?",
        ),
        ("Night owls, how do you cope with a 9-to-5?", None, None),
        ("What's a hobby that looks boring from outside but is secretly fascinating?", None, None),
        ("Teachers, what's the funniest excuse a student has given you?", None, None),
        (
            "What small habit made the biggest difference to your sleep?",
            None,
            "Mine was charging my phone on the other side of the room. Looking for more ideas.",
        ),
        ("What's a movie everyone loves that you just couldn't get into?", None, None),
        ("If you could instantly master one instrument, which would it be and why?", None, None),
    ],
    "books": [
        (
            "Just finished The Left Hand of Darkness and I can't stop thinking about it",
            None,
            "Le Guin wrote this in 1969 and it still feels ahead of its time. The crossing of the ice is "
            "some of the best survival writing I've read.\n\nAnyone have recommendations for what to read next?",
        ),
        (
            "Friendly reminder that your local library probably lends e-books for free",
            None,
            "Most libraries work with apps like **Libby** that let you borrow e-books and audiobooks "
            "with nothing but a library card. I've saved a small fortune this year.",
        ),
        (
            "The Booker Prize 2023 shortlist has been announced",
            "https://thebookerprizes.com/the-booker-library/prize-years/2023",
            None,
        ),
        ("What book made you fall in love with reading?", None, None),
        (
            "Do you keep reading a book you're not enjoying, or drop it?",
            None,
            "I used to finish everything out of stubbornness. Lately I quit at page 100 if it hasn't "
            "grabbed me. Curious where everyone lands.",
        ),
        (
            "Best fantasy series for someone who has already read Tolkien and Sanderson?",
            None,
            "I loved *Mistborn* and *The Lord of the Rings*. Looking for a well-built magic system and an "
            "ending that actually lands.",
        ),
        (
            "Why independent bookshops are making a comeback",
            "https://www.theguardian.com/books/2023/jan/14/independent-bookshops-comeback",
            None,
        ),
        (
            "My reading stats for 2022: 52 books, 14,000 pages",
            None,
            "The goal was one book a week and I made it on December 30th. Favourites:\n\n"
            "- *Piranesi* by Susanna Clarke\n- *The Overstory* by Richard Powers\n- *Educated* by Tara Westover\n\n"
            "What were your highlights?",
        ),
        ("Audiobooks count as reading. Change my mind.", None, None),
        (
            "Looking for non-fiction about the history of science",
            None,
            "Something narrative rather than a textbook. I enjoyed *The Emperor of All Maladies*.",
        ),
    ],
    "DIY": [
        (
            "Built a floating shelf from reclaimed oak, my first real woodworking project",
            None,
            "Took about three weekends. It hangs on a hidden steel bracket rated for 40 kg. Happy to answer "
            "questions about the finish (three coats of hardwax oil).",
        ),
        (
            "How do I fix a door that won't stay closed?",
            None,
            "Since the weather got humid the latch misses the strike plate by about 3 mm. Should I move the "
            "plate or plane the door?",
        ),
        (
            "A beginner's guide to choosing the right sandpaper grit",
            "https://www.familyhandyman.com/article/sandpaper-grit-guide/",
            None,
        ),
        (
            "Replaced my kitchen faucet myself and saved $200",
            None,
            "The shut-off valves were seized, so budget extra time for that. A basin wrench is absolutely "
            "worth the $15.",
        ),
        (
            "Which cordless drill brand is worth investing in?",
            None,
            "I'll end up buying into one battery platform, so I want to get it right the first time.",
        ),
        ("Tips for painting a room without getting lines on the ceiling?", None, None),
        (
            "Finally tiled my bathroom floor. Lessons learned inside.",
            None,
            "1. Buy 15% more tile than you think.\n2. Rent a wet saw instead of using a manual cutter.\n"
            "3. Levelling clips are a lifesaver.\n\nIt's not perfect, but I did it myself.",
        ),
        (
            "Is it safe to replace a light switch without an electrician?",
            None,
            "I turned off the breaker and confirmed with a voltage tester. Anything else I should know?",
        ),
        (
            "Converted an old dresser into a bathroom vanity",
            None,
            "Cut the top for a vessel sink and sealed everything with marine varnish.",
        ),
        ("What's the one tool you wish you'd bought sooner?", None, None),
    ],
    "food": [
        (
            "My grandmother's lentil soup recipe, finally written down",
            None,
            "- 1 cup red lentils\n- 1 onion, 2 carrots, 2 cloves of garlic\n- 1 tsp cumin, 1 tsp smoked paprika\n"
            "- 1 litre stock\n\nSimmer for 25 minutes, blend half of it, squeeze in a lemon. That's it.",
        ),
        ("What's the best way to store fresh herbs so they don't wilt in two days?", None, None),
        (
            "Why you should salt your pasta water, and how much",
            "https://www.seriouseats.com/salting-pasta-water",
            None,
        ),
        (
            "First attempt at sourdough: how did I do?",
            None,
            "The crumb is a bit tight but the crust crackled as it cooled. My starter is two weeks old.",
        ),
        (
            "Cast iron or stainless steel for a first serious pan?",
            None,
            "I cook mostly eggs, stir fries and the occasional steak.",
        ),
        (
            "Best coffee brewing method for a small kitchen?",
            None,
            "No room for an espresso machine. Deciding between an AeroPress and a pour-over.",
        ),
        ("Made ramen from scratch for the first time. The broth took 12 hours.", None, None),
        ("Which spice do you think is overrated?", None, None),
        (
            "Budget meal prep ideas that aren't just rice and beans?",
            None,
            "Feeding two people on about $50 a week.",
        ),
        (
            "Homemade pizza dough that actually works in a home oven",
            None,
            "Use 65% hydration, let the dough rest overnight in the fridge, and preheat a baking steel for "
            "45 minutes at the highest setting.",
        ),
    ],
    "gaming": [
        (
            "Finally beat Elden Ring after 140 hours",
            None,
            "Malenia took me 63 attempts. No summons. I have never been so relieved.",
        ),
        ("What's a game you replay every few years?", None, None),
        (
            "Steam Deck OLED announced with a bigger battery and an HDR screen",
            "https://store.steampowered.com/steamdeck",
            None,
        ),
        (
            "Indie gems from 2022 that flew under the radar?",
            None,
            "I'll start: *Tunic* and *Rogue Legacy 2*. What else did I miss?",
        ),
        (
            "Is it worth building a gaming PC in 2023 or should I get a console?",
            None,
            "My budget is about $900 and I mostly play single-player story games.",
        ),
        (
            "Tears of the Kingdom first impressions (no spoilers)",
            None,
            "The building mechanics are wild. I spent my first two hours making a terrible car.",
        ),
        ("Couch co-op games for two players?", None, None),
        ("Game soundtracks you listen to outside of gaming", None, None),
        ("What's the hardest boss you've ever faced?", None, None),
        (
            "Stardew Valley 1.6 update details",
            "https://www.stardewvalley.net/",
            "The developer says it adds new festivals and more end-game content.",
        ),
    ],
    "history": [
        (
            "The Library of Alexandria wasn't destroyed in a single fire",
            None,
            "It declined over centuries through funding cuts, purges of scholars and several separate fires. "
            "The single dramatic blaze is mostly legend.",
        ),
        ("What historical event do you think is most misunderstood?", None, None),
        (
            "Archaeologists find a Roman road under the Venice lagoon",
            "https://www.smithsonianmag.com/smart-news/roman-road-found-beneath-venice-lagoon-180978023/",
            None,
        ),
        (
            "How did medieval people actually tell the time?",
            None,
            "Sundials, water clocks, church bells for the hours of prayer... I'm curious how precise any of "
            "this was.",
        ),
        ("Recommended podcasts about ancient history?", None, None),
        (
            "The Great Emu War of 1932 was a real military operation",
            None,
            "Australia sent soldiers with machine guns against emus in Western Australia. The emus won.",
        ),
        ("What did sailors eat on long voyages in the 1700s?", None, None),
        (
            "Best books on the history of the Silk Road",
            None,
            "Looking for something readable, not a dense academic survey.",
        ),
        (
            "Photos of London after the Blitz are haunting",
            "https://www.iwm.org.uk/history/the-blitz-around-britain",
            None,
        ),
        (
            "Why did the Bronze Age collapse happen?",
            None,
            "Drought, earthquakes, the Sea Peoples, broken trade networks: is there any consensus now?",
        ),
    ],
    "movies": [
        (
            "Just watched Everything Everywhere All at Once for the third time",
            None,
            "Every rewatch I notice something new in the background of the laundromat scenes.",
        ),
        ("What's the best movie score of the last decade?", None, None),
        (
            "Oppenheimer was shot on IMAX film, and here's how they did it",
            "https://www.imax.com/news/oppenheimer",
            None,
        ),
        (
            "Underrated sci-fi movies that deserve more love?",
            None,
            "I'll start with *Moon* (2009) and *Coherence* (2013).",
        ),
        ("Practical effects vs CGI: which film got the balance right?", None, None),
        ("Which movie has the best opening scene?", None, None),
        (
            "The Godfather Part II is better than the first one",
            None,
            "The parallel stories of Vito and Michael lift it above the original. Fight me.",
        ),
        ("Movies that are better on a second watch", None, None),
        (
            "Top Gun: Maverick passes $1 billion at the box office",
            "https://www.boxofficemojo.com/release/rl2500036097/",
            None,
        ),
        ("What's a movie you walked out of at the cinema?", None, None),
    ],
    "music": [
        ("Albums you can listen to start to finish without skipping", None, None),
        (
            "Learning guitar at 40: six month progress",
            None,
            "I can play barre chords without buzzing now! Practising 20 minutes a day made all the difference.",
        ),
        (
            "Vinyl outsold CDs for the first time since 1987",
            "https://www.riaa.com/reports/2022-year-end-music-industry-revenue-report-riaa/",
            None,
        ),
        ("What's a song that instantly takes you back to a specific summer?", None, None),
        (
            "Best budget headphones for critical listening?",
            None,
            "Under $150, wired is fine. Mostly jazz and classical.",
        ),
        ("Concert etiquette: is filming the whole show okay?", None, None),
        (
            "Underrated jazz albums for a beginner",
            None,
            "I know *Kind of Blue*. What should come next?",
        ),
        (
            "The story behind the recording of Bohemian Rhapsody is wild",
            None,
            "The harmonies were overdubbed so many times that the tape started to wear thin.",
        ),
        ("What instrument do you wish you had learned as a kid?", None, None),
        ("Musicians, how do you deal with stage fright?", None, None),
    ],
    "science": [
        (
            "JWST captured the most detailed image of the Pillars of Creation yet",
            "https://www.nasa.gov/webb",
            "The near-infrared view shows newly forming stars inside the columns of gas.",
        ),
        (
            "Why is the sky blue but sunsets are red?",
            None,
            "I know it's scattering, but why does the colour change so much at sunset?",
        ),
        (
            "Scientists achieve net energy gain in a fusion experiment",
            "https://www.llnl.gov/news/national-ignition-facility-achieves-fusion-ignition",
            None,
        ),
        ("How do we know how old the universe is?", None, None),
        (
            "An octopus has neurons in its arms that can act on their own",
            None,
            "About two thirds of an octopus's neurons are in its arms. Each arm can taste and react without "
            "the central brain.",
        ),
        ("What's a scientific fact that sounds fake but is true?", None, None),
        ("Best science channels for curious adults?", None, None),
        (
            "First CRISPR therapy approved for sickle cell disease",
            "https://www.fda.gov/news-events/press-announcements/fda-approves-first-gene-therapies-treat-patients-sickle-cell-disease",
            None,
        ),
        (
            "How does coffee actually keep you awake?",
            None,
            "Something about adenosine receptors? I'd love an explanation for non-biologists.",
        ),
        ("Is there any real evidence for a ninth planet?", None, None),
    ],
    "sports": [
        (
            "Argentina wins the 2022 World Cup final on penalties",
            None,
            "Possibly the greatest final ever played. Messi finally gets his trophy.",
        ),
        ("What's the greatest comeback you've watched live?", None, None),
        (
            "The science of why marathon times keep falling",
            "https://www.runnersworld.com/news/a41960445/marathon-world-record-science/",
            None,
        ),
        (
            "Tips for getting back into running after an injury?",
            None,
            "I sprained my ankle in March. The doctor says I'm cleared but I'm nervous about hurting it again.",
        ),
        ("Who is the best point guard of all time?", None, None),
        ("Tennis: is the big-three era finally over?", None, None),
        (
            "Beginner's guide to watching cricket?",
            None,
            "My partner's family is obsessed and I understand none of it. Where do I start?",
        ),
        ("Favourite underdog story in sports history?", None, None),
        (
            "The Tour de France route for 2023 looks brutal",
            "https://www.letour.fr/en/overall-route",
            None,
        ),
        ("Home workout routine for someone who hates the gym", None, None),
    ],
    "technology": [
        (
            "I switched from Windows to Linux for a year. Here's my honest review.",
            None,
            "Gaming through Proton mostly works. Printer support was the biggest headache. I'm not going back.",
        ),
        (
            "What's the best password manager in 2023?",
            None,
            "Looking for something that works on Android and Linux and isn't too expensive.",
        ),
        (
            "USB-C will be mandatory for phones sold in the EU",
            "https://www.europarl.europa.eu/news/en/press-room/20220930IPR41928/",
            None,
        ),
        (
            "How long should a laptop battery last before replacing it?",
            None,
            "Mine is three years old and holds about 60% of its original charge.",
        ),
        ("Is a mechanical keyboard worth it for programming?", None, None),
        ("Self-hosting photos: Immich or Nextcloud?", None, None),
        ("My ISP finally offers fibre. Which router should I get?", None, None),
        ("Noise-cancelling headphones for open-plan offices?", None, None),
        (
            "ChatGPT passed 100 million users in two months",
            "https://www.reuters.com/technology/chatgpt-sets-record-fastest-growing-user-base-analyst-note-2023-02-01/",
            None,
        ),
        ("What's a piece of tech you bought that was actually worth the hype?", None, None),
    ],
    "travel": [
        (
            "Two weeks in Japan on a budget: full itinerary and costs",
            None,
            "Tokyo, Kyoto, Hiroshima and Osaka. Total spend was about $2,100 including flights. The JR Pass "
            "was worth it for us.",
        ),
        ("What's the best travel tip you've ever received?", None, None),
        (
            "Iceland's Ring Road: a complete driving guide",
            "https://guidetoiceland.is/travel-iceland/drive",
            None,
        ),
        ("Packing cubes: game changer or gimmick?", None, None),
        (
            "Where to find the best coffee in Lisbon?",
            None,
            "Staying in Alfama for a week and would love some local recommendations.",
        ),
        ("Solo travel as an introvert: how do you meet people?", None, None),
        ("Got stranded overnight in Frankfurt airport. Ask me anything.", None, None),
        (
            "Is travel insurance actually worth it?",
            None,
            "I never bought it in ten years of travelling. A friend just had a $4,000 hospital bill abroad and "
            "now I'm reconsidering.",
        ),
        (
            "Hiking the Inca Trail: what I wish I'd known",
            None,
            "Book permits six months ahead, acclimatise in Cusco for at least two days, and bring more layers "
            "than you think.",
        ),
        (
            "Underrated European cities for a long weekend?",
            None,
            "Already done Paris, Rome and Barcelona. Looking for somewhere less crowded.",
        ),
    ],
}

# The task account's own posts, at fixed times and scores so tasks can refer to them.
# (forum, title, url, body, created "YYYY-MM-DD HH:MM", net score)
OWN_POSTS: list[tuple[str, str, str | None, str | None, str, int]] = [
    (
        "movies",
        "Rewatched The Prestige and finally noticed the top hat clue",
        None,
        "The first scene with the pile of top hats gives away the whole twist. Nolan hides it in plain sight.",
        "2023-02-11 21:14",
        87,
    ),
    (
        "books",
        "Project Hail Mary is the most fun I've had with a sci-fi novel in years",
        None,
        "Funny, clever and surprisingly emotional. Any recommendations for similar books?",
        "2023-05-06 10:02",
        143,
    ),
    (
        "technology",
        "One year with a home server: what I'd do differently",
        None,
        "1. Buy a case with more drive bays.\n2. Set up backups on day one, not day 200.\n3. Label every cable.\n\n"
        "Still the best tech project I've done.",
        "2023-08-19 16:45",
        56,
    ),
    (
        "gaming",
        "What are you playing this weekend?",
        None,
        "I'm finally starting *Hollow Knight*. No spoilers please!",
        "2023-10-27 18:30",
        12,
    ),
]

# The task account's own comments: (forum, post title, text, parent): parent None is a
# top-level comment; "first" replies to the post's highest-scored top-level comment.
OWN_COMMENTS: list[tuple[str, str, str, str | None]] = [
    (
        "books",
        "Just finished The Left Hand of Darkness and I can't stop thinking about it",
        "The Dispossessed is a great follow-up if you want more Le Guin.",
        None,
    ),
    (
        "science",
        "JWST captured the most detailed image of the Pillars of Creation yet",
        "Set this as my wallpaper the day it came out.",
        None,
    ),
    (
        "movies",
        "What's the best movie score of the last decade?",
        "The organ theme from Interstellar still gives me chills.",
        "first",
    ),
    (
        "technology",
        "What's the best password manager in 2023?",
        "I've used Bitwarden for two years with no complaints.",
        "first",
    ),
    (
        "travel",
        "Two weeks in Japan on a budget: full itinerary and costs",
        "Saving this for next spring. Did you book the ryokan in Kyoto far ahead?",
        None,
    ),
]
