/*
 * vocab_cuisines.c — the cuisine vocabulary: one row per cuisine with its
 * typical price, hours, companions, dishes and name patterns.
 *
 * Cuisine names follow Yelp's category spelling, lowercased ('coffee & tea',
 * 'breakfast & brunch', 'bakeries'), because that is what the SUQL paper's
 * data and its queries use.  Dish lists avoid the words that belong to latent
 * attributes ("vegan", "kids") except in the cuisines that imply them, so a
 * menu never contradicts the ground truth.  Names are templates whose
 * combinations number in the hundreds per cuisine, enough to keep names
 * unique within a city at scale 1.  Some names and dishes keep their
 * accents ("Chez Mélisse", "crème brûlée", "jalapeño poppers", "phở gà"),
 * as real menus do, so searches with and without the accents are tested
 * and measured; each replaced an unaccented alternative one for one, so the
 * random choices (and everything else generated) stay as they were.
 */
#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "engine/util/xmem.h"

#define M GEN_HOURS_MEALS
#define C GEN_HOURS_CAFE
#define B GEN_HOURS_BREAKFAST
#define K GEN_HOURS_COUNTER
#define D GEN_HOURS_DINNER
#define R GEN_HOURS_BAR
#define L GEN_HOURS_LATE

#define TEA GEN_CF_TEA
#define FAM GEN_CF_FAMILY
#define ADU GEN_CF_ADULT
#define PLT GEN_CF_PLANT
#define ALC GEN_CF_ALCOHOL
#define FIN GEN_CF_FINE
#define CTR GEN_CF_COUNTER

const gen_cuisine gen_cuisine_table[] = {
{"coffee & tea", "coffee", 6, 0.2, C, TEA | CTR,
 "cafe|bakeries|breakfast & brunch",
 "cappuccino|latte|cortado|flat white|cold brew|pour-over coffee|mocha|chai latte|matcha latte|"
 "americano|drip coffee|iced oat milk latte|lavender honey latte|croissant|almond croissant|"
 "almond pastry|pain au chocolat|blueberry muffin|banana bread|morning bun|cinnamon roll|"
 "avocado toast|scone|affogato|london fog",
 "[[Blue Fog|Fog City|Golden Hour|Copper|Half Moon|Paper Plane|Driftwood|Wildflower|Nomad|Cedar|"
 "Lantern|Hillside|Common Ground|Morning Glory|Third Wave|North Star|Little Owl|Red Door|Kettle & Crumb|"
 "Maple Leaf] [Coffee|Coffee Roasters|Coffee Co.|Espresso Bar|Coffee Bar|Roastery|Tea House|Coffee & Tea]|"
 "[The Daily|The Steady|The Humble|The Perch|The Drip|The Commons] [Cup|Bean|Kettle|Roast|Pour|Press|Mug]|"
 "[Cafe|Caffe] [Luna|Strada|Sol|Bello|Aroma|Dolce|Nero|Corvo]]"},
{"cafe", "cafe food", 4, 0.6, C, TEA | CTR,
 "coffee & tea|sandwiches|breakfast & brunch|bakeries|salad",
 "quiche lorraine|avocado toast|croque monsieur|tuna melt|soup of the day|turkey pesto panini|"
 "chicken salad sandwich|grilled cheese and tomato soup|granola bowl|shakshuka|egg salad sandwich|"
 "lemon poppyseed muffin|carrot cake|cappuccino|hot chocolate|caprese sandwich|smoked salmon bagel|"
 "acai bowl|breakfast burrito|chai latte",
 "[[Café|Caffè|Café de] [Lumière|Rosa|Verde|Bellini|Soleil|Flore|Madeleine|Marguerite|Paloma|Lila|"
 "Sorrel|Amalfi]|[Parkside|Corner|Sunny Side|Greenhouse|Artisan|Garden|Hilltop|Laurel|Canyon|Juniper|"
 "Orchard|Blue Door|Tiny|Marigold|Sparrow] [Cafe|Kitchen|Cafe & Market|Eatery]]"},
{"bakeries", "pastries", 2.5, 0.4, C, TEA | CTR,
 "coffee & tea|cafe|desserts",
 "croissant|almond croissant|pain au chocolat|kouign amann|sourdough loaf|baguette|morning bun|"
 "cinnamon roll|fruit tart|éclair|lemon bar|chocolate chip cookie|macarons|cheese danish|apple turnover|"
 "cardamom bun|banana bread|ham and cheese croissant|olive levain|pastry box",
 "[[Golden Crust|Rise & Shine|Flour & Salt|Butter & Crumb|Sugar Bowl|Sweet Wheat|Mill Street|Hearth|"
 "Levain|Morning Loaf|Little Oven|Rolling Pin|Honey Bee|Bluebird|Mama's Oven|Sunrise|Silver Spoon] "
 "[Bakery|Bakeshop|Bake House|Patisserie|Boulangerie|Bread Co.]|"
 "[Boulangerie|Pâtisserie|Maison] [Dupont|Claire|Amélie|Benoît|Colette|Mireille|Lucien|Étoile]]"},
{"breakfast & brunch", "brunch", 3.5, 0.9, B, FAM,
 "american|cafe|diners|coffee & tea",
 "eggs benedict|buttermilk pancakes|french toast|chicken and waffles|huevos rancheros|breakfast burrito|"
 "corned beef hash|biscuits and gravy|avocado toast|dutch baby|lemon ricotta pancakes|crab cake benedict|"
 "steak and eggs|veggie scramble|bacon and cheddar omelette|mimosa|bloody mary|hash browns|belgian waffle|"
 "fresh fruit bowl",
 "[[Sunny Side|Over Easy|Rise & Shine|Morning Glory|Buttermilk|Early Bird|Golden Yolk|Flapjack|Griddle|"
 "Bacon & Butter|Toast|Daybreak|Hen House|Sunrise|Short Stack|Maple & Egg] "
 "[Cafe|Kitchen|Diner|Eatery|Breakfast Club|House]|"
 "[Mama|Aunt|Grandma|Uncle] [Jo|Rose|Dee|Bea|Lou|Sue|Mae]'s [Kitchen|Pancake House|Breakfast Nook|Cafe]]"},
{"diners", "diner food", 1.5, 0.7, B, FAM,
 "american|breakfast & brunch|burgers",
 "patty melt|club sandwich|chicken fried steak|meatloaf|milkshake|cheeseburger|onion rings|blt|"
 "grilled cheese|tuna melt|pancake stack|country breakfast|chili cheese fries|reuben|apple pie|"
 "hot turkey sandwich|chicken noodle soup|denver omelette|root beer float|mac and cheese",
 "[[Starlite|Silver Dollar|Route 66|Blue Moon|Main Street|Rocket|Neon|Jukebox|Atomic|Lucky Penny|"
 "Park Avenue|Checkerboard|Chrome|Night Owl|Hilltop|Moonlight|Country Road] [Diner|Grill|Coffee Shop|Diner & Grill]|"
 "[Sal|Mel|Eddie|Rosie|Lou|Dot|Hank|Betty|Frank|Marge]'s [Diner|Grill|Lunch Counter|Coffee Shop]]"},
{"american", "American food", 4, 1.2, M, FAM | ALC,
 "burgers|bars|breakfast & brunch|sandwiches|new american",
 "cheeseburger|fried chicken|mac and cheese|baby back ribs|cobb salad|clam chowder|buffalo wings|"
 "pot roast|shrimp and grits|chicken pot pie|meatloaf|wedge salad|french fries|grilled salmon|"
 "new york strip|cornbread|apple pie|brownie sundae|caesar salad|fish and chips|pork chop",
 "[The [Copper|Brass|Iron|Oak|Whistling|Hungry|Rusty|Golden|Local|Mission|Union] "
 "[Kettle|Table|Tavern|Spoon|Door|Anchor|Lantern|Kitchen|Plate|Pig]|"
 "[Main Street|Liberty|Harbor|Lincoln|Franklin|Commons|Hometown|Eastside|Westside] "
 "[Grill|Kitchen|Tavern|Eatery|Bar & Grill|Chophouse]]"},
{"new american", "seasonal American cooking", 3, 2.0, D, ALC | FIN,
 "californian|cocktail bars|wine bars|american",
 "roasted half chicken|burrata with stone fruit|hanger steak|crudo|seasonal vegetable plate|duck breast|"
 "brussels sprouts|little gem salad|pork belly|scallops|short rib|beet salad|chef's tasting menu|"
 "charred octopus|bone marrow|heirloom tomato salad|gnocchi|olive oil cake|wagyu tartare|halibut",
 "[[Juniper|Sorrel|Ember|Hearth|Fennel|Thistle|Marrow|Rye|Saltwood|Larkspur|Wildhaven|Alder|Quince|"
 "Foxglove|Bramble|Tamarack|Linden|Heirloom|Sage|Verbena]|"
 "[Juniper|Ember|Hearth|Alder|Rye|Linden|Saltwood|Bramble|Fennel|Thistle] "
 "[& Rye|& Oak|& Vine|Kitchen|Table|House|Social|Room]]"},
{"californian", "California cuisine", 2.5, 1.6, M, ALC,
 "new american|salad|seafood|wine bars",
 "farmers market salad|grilled artichoke|avocado toast|fish tacos|dungeness crab|cioppino|"
 "sourdough bread bowl|kale caesar|wood-fired flatbread|grain bowl|roasted beet salad|ahi poke|"
 "rotisserie chicken|seasonal crudo|grilled halibut|heirloom tomato salad|meyer lemon tart|"
 "smoked trout toast|garlic fries|cobb salad",
 "[[Golden State|Pacific|Coastline|Sierra|Redwood|Poppy|Sequoia|Half Dome|Big Sur|Sonoma|Marin|Baja|"
 "Manzanita|Sunset|Cypress|Monterey] [Kitchen|Table|Eatery|Grill|Provisions|Canteen|Farmhouse]|"
 "[Farm|Field|Garden|Market|Orchard|Harvest] [& Table|to Fork|House|Kitchen|Social]]"},
{"burgers", "burgers", 3, 0.6, L, FAM | CTR,
 "american|fast food|sandwiches|diners",
 "cheeseburger|double cheeseburger|bacon burger|mushroom swiss burger|veggie burger|turkey burger|"
 "smash burger|patty melt|french fries|garlic fries|sweet potato fries|onion rings|chocolate milkshake|"
 "vanilla shake|chili cheese fries|crispy chicken sandwich|jalapeno burger|blue cheese burger|tater tots|"
 "root beer float",
 "[[Big|Smash|Double|Patty|Lucky|Golden|Bun|Char|Flame|Stack|Two Hands|Juicy|Griddle] "
 "[Burger|Burgers|Burger Bar|Burger Joint|Burger Co.|Burger Shack]|"
 "[Eddie|Mo|Joe|Ray|Lou|Bob|Gus|Jimmy|Tommy|Pete]'s [Burgers|Burger Shack|Burger Joint|Hamburgers]]"},
{"fast food", "fast food", 2.5, 0.1, L, FAM | CTR,
 "burgers|sandwiches|mexican",
 "cheeseburger|chicken nuggets|french fries|spicy chicken sandwich|fish sandwich|soft serve cone|"
 "chicken tenders|hot dog|chili dog|onion rings|breakfast sandwich|hash brown|milkshake|curly fries|"
 "corn dog|bean burrito|chicken wrap|fried apple pie|popcorn chicken|fountain soda",
 "[[Quick|Speedy|Zippy|Rocket|Golden|Jumbo|Big Bite|Cluck|Super|Express|Mega|Snack|Red Hot|Top] "
 "[Burger|Chicken|Bites|Grill|Stop|Drive-In|Shack|Hut|Dogs|Burger Stand]]"},
{"sandwiches", "sandwiches", 3, 0.5, K, CTR,
 "cafe|salad|american",
 "italian combo|turkey club|pastrami on rye|reuben|banh mi|meatball sub|roast beef sandwich|"
 "caprese panini|chicken pesto sandwich|tuna salad sandwich|cuban sandwich|muffuletta|"
 "philly cheesesteak|blt|egg salad sandwich|french dip|grilled chicken wrap|veggie sandwich|"
 "chicken parm sandwich|potato salad",
 "[[Deli|Sandwich|Sub|Hero|Hoagie|Panini|Stack|Rye|Pickle|Mustard] [Shop|Spot|Board|Co.|House|Stop|Bar|Depot]|"
 "[Sal|Vito|Tony|Benny|Manny|Maria|Ike|Sam|Ruthie|Lenny]'s [Deli|Sandwiches|Delicatessen|Sandwich Shop|Subs]|"
 "[The Daily|Lunch Box|Rye & Mustard|Bread & Butter|Two Slices] [Sandwich Co.|Deli|Sandwich Shop]]"},
{"salad", "salads", 1, 0.7, K, CTR,
 "sandwiches|vegetarian|juice bars & smoothies|cafe",
 "cobb salad|chicken caesar|greek salad|kale salad|quinoa bowl|harvest salad|chopped salad|niçoise salad|"
 "asian chicken salad|spinach and strawberry salad|grain bowl|burrata salad|beet and goat cheese salad|"
 "southwest salad|wedge salad|tuna poke bowl|lentil soup|avocado chicken salad|green goddess salad|"
 "seasonal soup",
 "[Green|Leaf|Sprout|Fresh|Garden|Harvest|Crisp|Chop|Greenery|Root|Field|Radish|Sunflower] "
 "[Bowl|Kitchen|Salad Co.|Salads|Greens|Salad Bar|Market|& Grain]"},
{"barbecue", "barbecue", 1.8, 1.0, M, FAM | ALC,
 "american|soul food|sandwiches|bars",
 "pulled pork sandwich|brisket|baby back ribs|burnt ends|smoked sausage|st. louis ribs|smoked chicken|"
 "mac and cheese|cornbread|collard greens|coleslaw|baked beans|potato salad|banana pudding|"
 "brisket sandwich|tri-tip|smoked turkey|hush puppies|peach cobbler|sweet tea|two-meat combo plate|beef ribs",
 "[Smokey's|Big Earl's|Lone Star|Hickory|Mesquite|Red Oak|Uncle Ray's|Bone Daddy's|Pit Boss|Slow Burn|"
 "Texas Jack's|Burnt End|Memphis Mike's|Low & Slow|Sweet Smoke|Kansas City|Brick Pit|Backyard|Oak & Ash|"
 "Smoke Ring] [BBQ|BBQ Pit|Smokehouse|Barbecue|Rib Shack|Bar-B-Q|BBQ Co.|Barbecue Joint]"},
{"soul food", "soul food", 0.8, 0.9, M, FAM,
 "american|barbecue|breakfast & brunch",
 "fried chicken|fried catfish|smothered pork chops|oxtails|mac and cheese|collard greens|candied yams|"
 "cornbread|red beans and rice|shrimp and grits|chicken and waffles|black-eyed peas|gumbo|jambalaya|"
 "peach cobbler|sweet potato pie|banana pudding|hush puppies|fried okra|sweet tea",
 "[[Mama|Big Mama|Grandma|Aunt|Miss|Uncle] [Lou|Pearl|Hattie|Mae|Ruby|Dell|Earline|Bernice|Otis|Clara]'s "
 "[Kitchen|Soul Food|Southern Kitchen|Table|Cookin'|Chicken & Waffles]|"
 "[Magnolia|Sweet Georgia|Delta|Bayou|Juke Joint|Porch|Southern Belle|Cast Iron|Cornbread|Grits] "
 "[Kitchen|Soul Food|Southern Cooking|Table]]"},
{"steakhouse", "steak", 1.5, 2.4, D, ALC | FIN,
 "seafood|american|cocktail bars|wine bars",
 "ribeye|filet mignon|new york strip|porterhouse for two|tomahawk steak|wagyu steak|prime rib|"
 "creamed spinach|truffle mac and cheese|wedge salad|shrimp cocktail|lobster tail|oysters rockefeller|"
 "loaded baked potato|onion rings|bone marrow|crab cakes|chocolate lava cake|caesar salad|"
 "au gratin potatoes|steak tartare",
 "[[Prime|Bull & Bear|Cattleman's|Black Angus|Iron Horse|Stockyard|Bourbon|Gold Coast|Embers|"
 "Knife & Fork|Sterling|Ironwood|Cast & Cleaver] [Steakhouse|Chophouse|Grill|Steak House|Steak & Seafood]|"
 "[Harrington|Morton|Bradford|Whitfield|Sullivan|Carrington|McAllister|Donovan]'s [Steakhouse|Chophouse|Prime Steaks]]"},
{"seafood", "seafood", 2.5, 1.6, M, ALC,
 "american|californian|cocktail bars|sushi",
 "oysters on the half shell|clam chowder|cioppino|dungeness crab|lobster roll|fish and chips|"
 "grilled salmon|fried calamari|crab cakes|shrimp cocktail|garlic noodles|seafood platter|"
 "ahi tuna tartare|seared scallops|mussels in white wine|sea bass|shrimp scampi|crab louie|halibut|"
 "raw bar sampler|fish tacos|lobster bisque|grilled oysters",
 "[Salty|Blue|Captain's|Harbor|Anchor|Pier 7|Wharf|Tide|Seaside|Barnacle|Pelican|Dockside|Lighthouse|"
 "Mariner's|Bayside|Sea Breeze|Shell|Drift|Saltwater] "
 "[Seafood|Oyster Bar|Fish House|Crab House|Fish Market|Seafood Grill|Clam Shack|Raw Bar]"},
{"pizza", "pizza", 4, 0.7, L, FAM | ALC,
 "italian|sandwiches|salad|bars",
 "margherita pizza|pepperoni pizza|sausage and mushroom pizza|white pizza|meat lovers pizza|"
 "four cheese pizza|hawaiian pizza|bbq chicken pizza|veggie pizza|garlic knots|caesar salad|calzone|"
 "buffalo wings|pizza by the slice|deep dish pizza|cheese pizza|margherita with burrata|clam pie|"
 "meatball sub|cannoli|tiramisu|arugula and prosciutto pizza",
 "[[Tony's|Mario's|Sal's|Vito's|Gino's|Luigi's|Nico's|Giovanni's|Rocco's|Frankie's|Paulie's|Enzo's|Angelo's] "
 "[Pizza|Pizzeria|Pizza Napoletana|Pizza & Pasta|Slice Shop|Brick Oven Pizza]|"
 "[Golden Crust|Brick Oven|Wood Fire|Fire & Dough|Upper Crust|Dough Bros.|Napoli|Little Italy|Stone Oven|"
 "Mission|Pie Society|Hot Pie|Pie Hole] [Pizza|Pizzeria|Pizza Co.|Pizza Bar]|"
 "[Pizzeria|Pizza] [Bella|Napoli|Roma|Stella|Luna|Amore|Sorrento|Vesuvio]]"},
{"italian", "Italian food", 4.5, 1.5, M, ALC | FIN,
 "pizza|wine bars|mediterranean",
 "spaghetti carbonara|cacio e pepe|lasagna|fettuccine alfredo|chicken parmesan|eggplant parmesan|gnocchi|"
 "risotto ai funghi|osso buco|burrata|bruschetta|calamari fritti|linguine with clams|pappardelle bolognese|"
 "veal piccata|tiramisu|panna cotta|cannoli|caprese salad|minestrone|ravioli|margherita pizza|focaccia",
 "[[Trattoria|Osteria|Ristorante|Cucina|Enoteca|Taverna|Locanda] [Bella|Roma|Toscana|Napoli|Sorrento|"
 "Amalfi|Vesuvio|Fiorentina|Da Marco|Del Sole|Luna|Rustica|Mia|Siena|Verona|Positano|Il Forno|Bellavista|Palermo]|"
 "[Nonna|Mama|Zio|Papa] [Rosa|Lucia|Gina|Carla|Franco|Paolo|Vittorio|Nino]'s [Kitchen|Trattoria|Italian Kitchen|Cucina]|"
 "[Piccolo|Il|Bella] [Forno|Giardino|Tavolo|Vigneto|Fiore|Borgo]]"},
{"french", "French food", 2, 2.1, D, ALC | FIN,
 "wine bars|cafe|breakfast & brunch|bakeries",
 "steak frites|duck confit|coq au vin|beef bourguignon|french onion soup|escargots|moules frites|"
 "croque madame|niçoise salad|bouillabaisse|quiche lorraine|foie gras|ratatouille|crème brûlée|"
 "chocolate soufflé|tarte tatin|profiteroles|sole meunière|cheese plate|croissant|roast chicken|pâté",
 "[[Bistro|Brasserie|Café|Chez|Maison] [Lyon|Paris|Provence|Marcel|Colette|Jacques|Margaux|Bordeaux|"
 "Rive Gauche|Étoile|Normandie|Mélisse|Henri|Lucien|Niçoise|Lafayette|Montmartre|Bastille]|"
 "[Le|La] [Papillon|Cigale|Marmite|Bouchon|Comptoir|Fourchette|Table|Rôtisserie|Cocotte|Petite Crème]]"},
{"spanish", "Spanish food", 0.8, 1.6, D, ALC | FIN,
 "tapas|wine bars|mediterranean",
 "paella valenciana|seafood paella|patatas bravas|gambas al ajillo|jamon iberico|tortilla espanola|"
 "croquetas|pulpo a la gallega|chorizo|pan con tomate|albondigas|churros con chocolate|sangria|manchego|"
 "grilled octopus|padron peppers|gazpacho|squid ink paella|crema catalana|bacalao",
 "[Casa|Bodega|Taberna|Meson|Cocina] [Sevilla|Madrid|Barcelona|Toledo|Andalucia|Valencia|Granada|"
 "Catalana|del Mar|Flamenco|Rioja|Asturias|Galicia|Bilbao|Navarra]"},
{"tapas", "tapas", 0.6, 1.5, D, ALC,
 "spanish|wine bars|cocktail bars",
 "patatas bravas|gambas al ajillo|croquetas de jamon|pan con tomate|albondigas|padron peppers|"
 "tortilla espanola|chorizo al vino|pulpo a la plancha|boquerones|datiles con bacon|jamon serrano|"
 "manchego with membrillo|garlic mushrooms|calamares fritos|empanadillas|sangria|"
 "cheese and charcuterie board",
 "[[Tapas|Pintxos|Taberna] [Barcelona|Sevilla|del Sol|Flamenco|Bravas|Castilla|Jerez|La Rambla|"
 "Donostia|Picasso|Gaudi]|[Tapa|Pintxo|Sangria|Olive|Saffron|Manchego] [Bar|Room|House|Social|Kitchen]]"},
{"greek", "Greek food", 1.2, 1.3, M, ALC,
 "mediterranean|middle eastern|halal",
 "gyro plate|chicken souvlaki|lamb souvlaki|spanakopita|moussaka|pastitsio|horiatiki salad|dolmades|"
 "tzatziki|hummus|saganaki|grilled octopus|lamb chops|avgolemono soup|keftedes|baklava|loukoumades|"
 "greek yogurt with honey|falafel|taramosalata|warm pita|whole grilled branzino",
 "[[Opa|Mythos|Olympus|Athena|Zorba's|Santorini|Mykonos|Aegean|Kalamata|Yia Yia's|Plaka|Parthenon|Oia|"
 "Ithaca|Delphi|Acropolis] [Taverna|Greek Kitchen|Greek Grill|Cafe|Souvlaki|Gyros]|"
 "[Taverna|Estiatorio|Kouzina] [Athena|Ithaca|Aegean|Kalamata|Santorini|Mykonos|Yiayia|Plaka|Olympia|Nissi]]"},
{"mediterranean", "Mediterranean food", 2.5, 0.9, M, 0,
 "greek|middle eastern|halal|vegetarian",
 "hummus|falafel wrap|chicken shawarma plate|lamb kebab|tabbouleh|baba ghanoush|fattoush salad|"
 "grilled halloumi|mezze platter|stuffed grape leaves|shakshuka|lamb kofta|pita bread|muhammara|"
 "grilled branzino|lentil soup|baklava|labneh|chicken kebab plate|greek salad",
 "[Olive|Cedar|Pomegranate|Saffron|Za'atar|Fig|Sumac|Levant|Mezze|Aleppo|Oasis|Sahara|Tahini|Jasmine|"
 "Lemon Tree] [Mediterranean Grill|Mediterranean Kitchen|Grill|Cafe|Kitchen|Bistro|House]"},
{"middle eastern", "Middle Eastern food", 1.5, 0.8, M, 0,
 "mediterranean|halal|vegetarian",
 "chicken shawarma|beef shawarma|falafel|hummus with lamb|kibbeh|manakeesh|fattoush|tabbouleh|"
 "kofta kebab|mansaf|mujadara|baba ghanoush|sabich|knafeh|baklava|lamb shank|mixed grill|"
 "foul mudammas|shish tawook|turkish coffee",
 "[Beirut|Damascus|Jerusalem|Aladdin's|Baba's|Al-Noor|Sultan|Petra|Byblos|Palmyra|Zaytoon|Shahrazad|"
 "Habibi|Yalla|Marrakech|Ottoman|Amman|Tabouli] [Grill|Kitchen|Cafe|Shawarma|Kabob House|Falafel|Bakery & Grill]"},
{"halal", "halal food", 0.8, 0.5, L, CTR,
 "middle eastern|indian|mediterranean",
 "chicken over rice|lamb over rice|chicken shawarma|gyro wrap|falafel plate|beef kebab|biryani|"
 "chicken tikka|lamb chops|halal cart platter|white sauce fries|chapli kebab|nihari|haleem|seekh kebab|"
 "mango lassi|samosas|naan|chicken karahi|gulab jamun",
 "[Al-Madina|Karachi|Zam Zam|Kabul|Lahore|Salaam|Bismillah|Royal|Crescent|Star|Noor|Tandoor|Kebab] "
 "[Grill|Kebab House|Kitchen|Halal Cart|Bites|Express|Kabob]"},
{"ethiopian", "Ethiopian food", 0.7, 0.9, M, 0,
 "vegan|vegetarian",
 "doro wat|injera|kitfo|tibs|shiro|misir wat|gomen|veggie combo|beef tibs|lamb tibs|yetsom beyaynetu|"
 "alicha|fir fir|sambusa|ethiopian coffee ceremony|atkilt wat|kik alicha|honey wine|azifa|special kitfo",
 "[Addis|Abyssinia|Lalibela|Axum|Gondar|Blue Nile|Sheba|Lucy|Harar|Meskel|Selam|Enat|Tana|Walia|Gojo|"
 "Bahir Dar] [Ethiopian Restaurant|Ethiopian Cuisine|Ethiopian Kitchen|Cafe|Restaurant]"},
{"indian", "Indian food", 3.5, 1.0, M, 0,
 "vegetarian|halal",
 "chicken tikka masala|butter chicken|lamb vindaloo|palak paneer|chana masala|garlic naan|samosas|biryani|"
 "tandoori chicken|dal makhani|aloo gobi|malai kofta|saag paneer|lamb rogan josh|chicken korma|"
 "masala dosa|mango lassi|gulab jamun|onion bhaji|paneer tikka|chicken 65|pani puri",
 "[Taj|Namaste|Bombay|Delhi|Tandoori|Masala|Saffron|Curry|Spice|Chutney|Royal|Maharaja|Punjab|Kerala|"
 "Udupi|Chaat|Bollywood|Kohinoor|Darbar|Amber|Ganges|Jaipur|Mumbai] "
 "[Palace|House|Kitchen|Garden|Express|Bistro|Grill|Junction|Cafe|Mahal|Corner|Bhavan]"},
{"chinese", "Chinese food", 5, 0.9, M, FAM,
 "dim sum|cantonese|szechuan|noodles|seafood",
 "kung pao chicken|mapo tofu|orange chicken|beef chow fun|hot and sour soup|walnut shrimp|peking duck|"
 "salt and pepper squid|xiao long bao|potstickers|dan dan noodles|sweet and sour pork|chow mein|"
 "fried rice|egg rolls|general tso's chicken|twice cooked pork|dry fried green beans|wonton soup|"
 "beef and broccoli|honey walnut prawns|scallion pancakes",
 "[Golden|Jade|Lucky|Red|Imperial|Dragon|Great|Hunan|Canton|Peking|Shanghai|Panda|Mandarin|Grand|"
 "Ocean|Silver|Pearl|Bamboo|China|Lotus|Phoenix|Fortune|Double Happiness] "
 "[Lotus|Garden|Palace|Dragon|House|Wok|Kitchen|Pearl|Bowl|Dynasty|Village|Express|Bistro|Restaurant|Court|Star|Cafe]"},
{"cantonese", "Cantonese food", 1, 1.0, M, FAM,
 "chinese|dim sum|seafood",
 "roast duck|char siu|cantonese chow mein|wonton noodle soup|steamed fish|salt and pepper pork chops|"
 "clay pot rice|congee|beef chow fun|soy sauce chicken|crispy pork belly|gai lan with oyster sauce|"
 "shrimp dumplings|lobster with ginger and scallion|egg tarts|fried rice|roast pork bun|"
 "sweet and sour spare ribs|yang chow fried rice|salted fish fried rice",
 "[Canton|Hong Kong|Kowloon|Guangzhou|Pearl River|Golden|Harbor|Lucky|Fortune|Jade|Victoria|Sun Wah|"
 "Hing Lung|Yummy] [Seafood Restaurant|BBQ|Kitchen|Cafe|Noodle House|Cuisine|Restaurant|Roast House]"},
{"dim sum", "dim sum", 1.2, 1.0, M, FAM,
 "chinese|cantonese",
 "har gow|siu mai|char siu bao|xiao long bao|egg tarts|rice noodle rolls|turnip cake|chicken feet|"
 "sesame balls|pork buns|shrimp dumplings|potstickers|lotus leaf sticky rice|custard buns|"
 "spare ribs with black bean|taro dumplings|mango pudding|shanghai soup dumplings|crispy shrimp rolls|"
 "pan-fried chive dumplings",
 "[Dumpling|Golden|Hong Kong|Harbor|Canton|Jade|Lucky|Pearl|Dragon|Tea|Emperor|Royal|Happy] "
 "[House|Palace|Garden|Kitchen|Express|Lounge|Corner|Bistro|King|Dim Sum|Teahouse]"},
{"szechuan", "Sichuan food", 1.2, 1.0, M, 0,
 "chinese|noodles|hot pot",
 "mapo tofu|dan dan noodles|kung pao chicken|chongqing spicy chicken|boiled fish in chili oil|"
 "twice cooked pork|fish-flavored eggplant|dry fried green beans|cumin lamb|spicy wontons in chili oil|"
 "dry pot|fuqi feipian|hot and sour soup|sichuan cold noodles|tea smoked duck|dry fried beef|"
 "spicy cucumber salad|sichuan peppercorn beef|garlic eggplant|chili oil dumplings",
 "[Sichuan|Szechuan|Chengdu|Chongqing|Spicy|Mala|Red Chili|Hot Pepper|Little|Numb|Peppercorn|Fire|Panda] "
 "[Kitchen|House|Garden|Impression|Taste|Home|Bistro|Restaurant|Flavor|Cuisine]"},
{"taiwanese", "Taiwanese food", 1, 0.8, L, 0,
 "chinese|noodles|bubble tea",
 "beef noodle soup|three cup chicken|popcorn chicken|braised pork rice|oyster omelette|scallion pancakes|"
 "gua bao|xiao long bao|fried chicken cutlet|stinky tofu|pork chop rice|beef roll|shaved ice|"
 "boba milk tea|soy milk and fried cruller|turnip cake|pan-fried buns|taiwanese sausage|sesame noodles|"
 "pineapple cake",
 "[Taipei|Formosa|Taiwan|Jiu Fen|Keelung|Tainan|Kaohsiung|Ximen|Shilin|Night Market|Little|Auntie|A-Mei] "
 "[Cafe|Kitchen|Noodle House|Bistro|Eatery|Restaurant|Snack House|Beef Noodle]"},
{"hot pot", "hot pot", 1, 1.3, L, 0,
 "chinese|szechuan|korean",
 "spicy mala broth|tomato broth|mushroom broth|bone broth|thinly sliced lamb|wagyu beef slices|fish balls|"
 "shrimp paste|tofu skin|enoki mushrooms|napa cabbage|handmade noodles|quail eggs|beef tripe|"
 "pork belly slices|house dipping sauce|fish fillet|lotus root|rice cakes|dumplings",
 "[Little|Golden|Boiling|Bubbling|Dragon|Mala|Chongqing|Sichuan|Fire|Ember|Red|Mongolian|Steaming|Jade] "
 "[Hot Pot|Hotpot|Shabu Shabu|Hot Pot House|Hot Pot & BBQ|Pot]"},
{"noodles", "noodles", 1, 0.7, M, 0,
 "chinese|taiwanese|ramen",
 "beef noodle soup|hand-pulled noodles|dan dan noodles|biang biang noodles|chow mein|lo mein|"
 "wonton noodle soup|knife-cut noodles|cold sesame noodles|zha jiang mian|chow fun|spicy cumin lamb noodles|"
 "pad see ew|garlic noodles|udon|soba|dumplings|scallion pancakes|chili oil wontons|pork belly noodles",
 "[Hand-Pulled|Lanzhou|Xi'an|Biang|Silk Road|Golden|Bamboo|Long Life|Slurp|Big Bowl|Oodles|Twisted|Red] "
 "[Noodle House|Noodles|Noodle Bar|Noodle Co.|Kitchen|Bowl]"},
{"japanese", "Japanese food", 3.5, 1.4, M, ALC,
 "sushi|ramen",
 "chicken teriyaki|tonkatsu|tempura udon|chicken katsu curry|salmon teriyaki|gyoza|edamame|miso soup|"
 "agedashi tofu|karaage|okonomiyaki|takoyaki|beef sukiyaki|unagi don|oyakodon|yakitori|chirashi bowl|"
 "matcha ice cream|sashimi platter|sake flight|katsu sando",
 "[[Sakura|Hana|Kiku|Fuji|Kyoto|Osaka|Tokyo|Momo|Yuzu|Kaze|Tsuki|Yama|Nami|Sora|Matsu|Tanuki|Kintaro|"
 "Mikado|Shiki|Koi|Umi] [Japanese Restaurant|Izakaya|Japanese Cuisine|Teahouse|Kitchen|Bistro|Japanese Grill]|"
 "Izakaya [Kaze|Tsuki|Hana|Roku|Maru|Nami|Sora|Hotaru|Tomo]]"},
{"sushi", "sushi", 3.5, 1.8, M, ALC | FIN,
 "japanese",
 "omakase|toro nigiri|salmon nigiri|yellowtail sashimi|uni|spicy tuna roll|california roll|rainbow roll|"
 "dragon roll|caterpillar roll|salmon avocado roll|chirashi bowl|hand rolls|ikura|scallop nigiri|"
 "tuna tataki|unagi roll|sashimi platter|miso soup|seaweed salad|tamago|spider roll",
 "[[Sushi|Sushi Bar] [Hana|Kiku|Sakura|Tomo|Ran|Zen|Masa|Yoshi|Nori|Umi|Aji|Ryo|Kaz|Taka|Sho|Kobo|Kai|"
 "Tora|Raku|Ohana]|[Hana|Koi|Blue Fin|Umi|Nigiri|Wasabi|Maki|Kaiyo|Ryoko|Toro|Midori|Minato|Kanpai] "
 "[Sushi|Sushi Bar|Sushi & Grill|Sushi House|Omakase]]"},
{"ramen", "ramen", 1.8, 1.0, L, 0,
 "japanese|noodles",
 "tonkotsu ramen|shoyu ramen|miso ramen|spicy miso ramen|shio ramen|tsukemen|black garlic ramen|"
 "vegetable ramen|chashu bowl|gyoza|karaage|takoyaki|ajitama egg|chicken paitan ramen|tantanmen|"
 "pork buns|edamame|corn butter ramen|yuzu shio ramen|fried rice",
 "[[Menya|Ramen-ya|Ramen Shop|Ramen House] [Taka|Ichi|Hinode|Kotetsu|Yume|Shin|Sora|Kazan|Genki|Hachi|"
 "Ippo|Daruma|Tora|Benten]|[Tonkotsu|Shoyu|Broth|Golden|Hikari|Ichiban|Oishii|Kotori|Musashi] "
 "[Ramen|Ramen Bar|Ramen House|Ramen Shop]]"},
{"korean", "Korean food", 2.2, 1.3, M, ALC,
 "barbecue|hot pot|japanese",
 "korean bbq|galbi|bulgogi|samgyeopsal|bibimbap|dolsot bibimbap|kimchi jjigae|soondubu jjigae|japchae|"
 "korean fried chicken|tteokbokki|haemul pajeon|banchan|naengmyeon|galbi jjim|dak galbi|duck bulgogi|"
 "kimchi fried rice|budae jjigae|bossam|smoked duck",
 "[Seoul|Gangnam|Busan|Han River|Jeju|Kimchi|Arirang|Myeongdong|Insadong|Hanok|Namsan|Bulgogi|Sura|"
 "Tofu|Galbi|Mapo] [BBQ|Korean BBQ|House|Kitchen|Garden|Tofu House|Restaurant|Grill|Pocha|Jib]"},
{"thai", "Thai food", 3.5, 0.9, M, ALC,
 "vietnamese|noodles|asian fusion",
 "pad thai|pad see ew|green curry|red curry|panang curry|massaman curry|tom yum soup|tom kha gai|larb|"
 "papaya salad|drunken noodles|khao soi|pineapple fried rice|basil chicken|mango sticky rice|"
 "thai iced tea|chicken satay|fresh spring rolls|crispy pork belly|boat noodles|garlic prawns|pumpkin curry",
 "[Thai|Bangkok|Siam|Lotus|Chiang Mai|Orchid|Basil|Lemongrass|Jasmine|Elephant|Royal|Baan|Krung|"
 "Sukhothai|Phuket|Ayutthaya|Sawasdee|Thai Smile] "
 "[Thai|Thai Cuisine|Kitchen|Garden|House|Bistro|Cafe|Cuisine|Orchid|Street Food|Noodle House]"},
{"vietnamese", "Vietnamese food", 3, 0.6, M, 0,
 "noodles|sandwiches|thai",
 "phở tái|phở gà|banh mi|bun bo hue|vermicelli bowl|broken rice|spring rolls|imperial rolls|banh xeo|"
 "com tam|shaking beef|garlic noodles|clay pot fish|lemongrass chicken|vietnamese iced coffee|"
 "bun thit nuong|banh cuon|crispy egg rolls|rice plate|che ba mau|pork chop rice",
 "[[Saigon|Hanoi|Hue|Mekong|Lotus|Bamboo|Little|Golden|Dalat|Vung Tau|Nha Trang|Hoi An] "
 "[Pho|Noodle House|Kitchen|Cafe|Garden|Bistro|Express|Corner|Restaurant|Sandwiches]|"
 "Pho [Hoa|Ha Noi|Saigon|Bac|Huynh|Tan|Thanh|Nam|Minh|Ngon|Quyen|Viet|Vy|Lan]]"},
{"filipino", "Filipino food", 0.8, 0.8, M, FAM,
 "asian fusion|desserts|breakfast & brunch",
 "chicken adobo|pork adobo|lumpia|pancit|sinigang|lechon kawali|sisig|kare-kare|longsilog|tocilog|"
 "chicken inasal|halo-halo|ube ice cream|bistek|lechon|garlic fried rice|ube cheesecake|turon|bibingka|pinakbet",
 "[Lola's|Tito's|Manila|Bahay|Isla|Barrio|Jeepney|Mabuhay|Sarap|Tita's|Kain Na|Sampaguita|Lutong|Ube] "
 "[Kitchen|Filipino Kitchen|Grill|Eatery|Cafe|Bistro|Kusina|Turo-Turo]"},
{"hawaiian", "Hawaiian food", 1.2, 0.7, M, FAM | CTR,
 "seafood|asian fusion|salad",
 "ahi poke bowl|spicy salmon poke|loco moco|kalua pork|huli huli chicken|spam musubi|garlic shrimp|"
 "plate lunch|macaroni salad|shoyu chicken|mochiko chicken|teriyaki beef|haupia|malasadas|shave ice|"
 "lomi lomi salmon|poke nachos|coconut shrimp|kalbi short ribs|pineapple fried rice",
 "[Aloha|Ono|Mahalo|Da Kine|Lanikai|Kona|Maui|Pono|Ohana|Hilo|Waikiki|Lava|Island|Kahala|Makai] "
 "[Hawaiian BBQ|Poke|Kitchen|Grill|Plate Lunch|Cafe|Poke Bar|Shack]"},
{"asian fusion", "Asian fusion", 1.5, 1.5, M, ALC,
 "cocktail bars|japanese|korean|thai",
 "korean fried chicken tacos|kimchi fries|ahi tuna tacos|bao sliders|ramen burger|five-spice duck|"
 "miso black cod|crispy brussels sprouts with fish sauce|thai basil fried rice|lemongrass pork belly|"
 "spicy tuna crispy rice|garlic noodles|bulgogi burrito|miso glazed eggplant|yuzu cheesecake|"
 "matcha tiramisu|wagyu fried rice|shrimp toast|salt and pepper wings|sesame chicken",
 "[Umami|East West|Silk|Lantern|Jade|Ember|Koi|Tiger|Blue Ginger|Red Lantern|Bao|Black Sesame|Wasabi|"
 "Yuzu|Lotus|Monsoon] [Kitchen|Social|House|Lounge|Bistro|Table|Eatery|Tavern|Bar]"},
{"mexican", "Mexican food", 5, 0.6, M, FAM | ALC,
 "tacos|bars|breakfast & brunch",
 "carne asada tacos|al pastor tacos|carnitas burrito|super burrito|chicken enchiladas|chile relleno|"
 "mole poblano|pozole|tamales|quesadilla|chips and guacamole|elote|fish tacos|carnitas plate|"
 "birria tacos|chilaquiles|huevos rancheros|horchata|churros|tortilla soup|nachos|shrimp ceviche|margarita",
 "[[Taqueria|Cocina|Casa|Restaurante|Cantina|Tacos] [Guadalajara|Jalisco|Oaxaca|Michoacan|Puebla|Azteca|"
 "Cancun|del Sol|Los Amigos|La Palma|Tres Hermanos|Mi Tierra|Vallarta|Chapala|Mi Pueblo|Garibaldi|Lupita|"
 "La Fiesta|Dona Maria|El Toro|San Miguel|Zacatecas]|"
 "[La Cocina de|El Rancho de|Casa de] [Rosa|Lupe|Pancho|Chuy|Memo|Carmen|Beto|Nacho]]"},
{"tacos", "tacos", 1.5, 0.3, L, CTR,
 "mexican|food trucks",
 "al pastor tacos|carne asada tacos|carnitas tacos|birria tacos with consomme|fish tacos|shrimp tacos|"
 "lengua tacos|chorizo tacos|suadero tacos|cabeza tacos|quesabirria|nopales tacos|chicken tinga tacos|"
 "mulitas|vampiros|street corn|chips and salsa|horchata|agua fresca|taco plate",
 "[[Taqueria|Tacos] [El Gordo|El Toro|La Estrella|Los Primos|El Paisa|El Pastor|Don Pedro|El Chino|La Bamba|"
 "Chihuahua|Sinaloa|El Tizon|La Reina|El Rey|Los Compadres]|Taco [Loco|Town|Shack|Stand|Hermanos|Haven|Republic]]"},
{"peruvian", "Peruvian food", 0.7, 1.3, M, ALC,
 "seafood|cocktail bars",
 "lomo saltado|ceviche|aji de gallina|pollo a la brasa|causa|anticuchos|papa a la huancaina|"
 "arroz con mariscos|tallarines verdes|chicharron|leche de tigre|jalea|seco de res|tacu tacu|alfajores|"
 "picarones|chicha morada|pisco sour|yuca fries|rotisserie chicken",
 "[Inka|Machu Picchu|Lima|Cusco|Andes|Nazca|Titicaca|Qosqo|Mancora|Arequipa|Pachamama|Chicha|Miraflores|"
 "Pisco] [Peruvian Cuisine|Peruvian Kitchen|Restaurant|Rotisserie|Cevicheria|Grill|Bistro]"},
{"brazilian", "Brazilian food", 0.5, 1.9, M, ALC,
 "steakhouse|bars",
 "picanha|churrasco|feijoada|pao de queijo|coxinha|moqueca|linguica|fraldinha|bacon-wrapped chicken|"
 "farofa|grilled pineapple|brigadeiros|caipirinha|salad bar|garlic beef|lamb chops|pastel|acai bowl|"
 "fried bananas|parmesan pork loin",
 "[Rio|Ipanema|Copacabana|Bahia|Samba|Sao Paulo|Brasa|Gaucho|Fogo|Tropicana|Amazonia|Carioca|Minas|"
 "Pampas] [Grill|Steakhouse|Churrascaria|Brazilian Grill|Kitchen|Cafe|Bistro]"},
{"cuban", "Cuban food", 0.5, 1.0, M, ALC,
 "sandwiches|cocktail bars|breakfast & brunch",
 "cuban sandwich|ropa vieja|lechon asado|picadillo|vaca frita|black beans and rice|fried plantains|"
 "tostones|yuca con mojo|croquetas|empanadas|medianoche sandwich|arroz con pollo|flan|tres leches|"
 "cafe cubano|mojito|ham croquettes|pollo a la plancha|guava pastries",
 "[Havana|Cuba Libre|Habana|Little Havana|Buena Vista|Malecon|Mi Cuba|Varadero|Guantanamera|Cienfuegos|"
 "Santiago|Mojito] [Cafe|Kitchen|Restaurant|Grill|Sandwich Shop|Bistro|Cocina]"},
{"vegan", "vegan food", 1.2, 1.0, M, PLT,
 "vegetarian|cafe|salad|juice bars & smoothies",
 "vegan burger|impossible burger|tofu scramble|jackfruit tacos|cauliflower wings|buddha bowl|"
 "vegan mac and cheese|tempeh reuben|vegan chili|vegan pho|beyond sausage pizza|cashew cheese plate|"
 "vegan caesar|mushroom bulgogi|lentil soup|vegan donuts|chickpea salad sandwich|acai bowl|"
 "raw cacao brownie|oat milk latte",
 "[Green|Plant|Sprout|Leaf|Root|Seed|Kale|Evergreen|Verdant|Beet|Flora|Peas & Love|Wild Greens|Sprig] "
 "[Kitchen|Cafe|Table|Eatery|Bowl|House|Bistro|Plant Kitchen|Vegan Cafe]"},
{"vegetarian", "vegetarian food", 1, 1.0, M, PLT,
 "vegan|salad|indian|cafe",
 "veggie burger|falafel plate|paneer tikka|eggplant parmesan|mushroom risotto|grilled cheese|"
 "caprese sandwich|roasted vegetable bowl|spinach lasagna|black bean burger|chana masala|stuffed peppers|"
 "quinoa salad|mushroom tacos|vegetable curry|veggie pizza|sweet potato fries|kale caesar|shakshuka|"
 "cauliflower steak",
 "[Greens|Lentil|Harvest|Garden|Saffron|Lotus|Shanti|Prana|Veggie|Meadow|Chickpea|Bodhi|Earth|Sunflower|"
 "Mung Bean] [Kitchen|Cafe|Table|House|Vegetarian|Bistro|Garden|Bowl]"},
{"desserts", "desserts", 1.5, 0.6, L, CTR | TEA,
 "bakeries|ice cream|coffee & tea",
 "chocolate lava cake|tiramisu|crème brûlée|cheesecake|strawberry shortcake|mochi|macarons|churros|"
 "bread pudding|key lime pie|tres leches cake|banana cream pie|carrot cake|brownie sundae|fruit tart|"
 "soufflé pancakes|honey toast|matcha roll cake|chocolate mousse|cannoli|basque cheesecake",
 "[Sugar|Velvet|Honey|Cocoa|Butterfly|Cloud|Petite|Cherry|Brûlée|Sprinkles|Dolce|Mochi|Berry|Moonlight|"
 "Crumbs] [Dessert Bar|Desserts|Sweets|Dessert Café|Patisserie|Cake Shop|Parlor|Creamery|Lab]"},
{"ice cream", "ice cream", 1.2, 0.3, L, FAM | CTR,
 "desserts|coffee & tea",
 "salted caramel ice cream|mint chip|cookies and cream|strawberry sorbet|pistachio gelato|ube ice cream|"
 "matcha soft serve|affogato|banana split|hot fudge sundae|ice cream sandwich|rocky road|vanilla bean|"
 "brown butter pecan|waffle cone|milkshake|mango sorbet|black sesame ice cream|sundae flight|"
 "birthday cake ice cream",
 "[Scoop|Sweet Cream|Polar|Creamy|Frosty|Penguin|Igloo|Velvet|Cone|Two Scoops|Cherry|Sundae|Rocky Road|"
 "Marshmallow|Waffle|Sprinkle] [Creamery|Ice Cream|Gelato|Scoops|Ice Cream Parlor|Frozen Treats|Dairy]"},
{"bubble tea", "boba", 1.8, 0.2, L, CTR,
 "coffee & tea|desserts|taiwanese",
 "classic milk tea with boba|brown sugar boba milk|taro milk tea|matcha latte with boba|mango green tea|"
 "passion fruit tea|thai milk tea|jasmine milk tea|lychee slush|strawberry matcha|oolong milk tea|"
 "honeydew slush|cheese foam tea|winter melon tea|grass jelly milk tea|popcorn chicken|egg waffle|"
 "boba smoothie|ube milk tea|wintermelon lemonade",
 "[[Boba|Pearl|Bubble|Tapioca|Sweet|Lucky|Tiger|Cloud|Honey|Jelly|Sunny|Matcha] "
 "[Tea House|Tea Bar|Lab|Time|Station|Bar|Express|Spot|Land]|[Boba|Tea] [Bliss|Craze|Island|Kingdom|Planet|Republic]]"},
{"bars", "drinks", 3, 1.0, R, ADU | ALC,
 "american|burgers|cocktail bars",
 "buffalo wings|nachos|sliders|loaded fries|draft beer|old fashioned|margarita|mozzarella sticks|"
 "pretzel bites|chicken tenders|fish tacos|quesadilla|beer flight|house lager|moscow mule|"
 "jalapeño poppers|pulled pork sliders|truffle fries|spicy margarita|fried pickles",
 "[The|Lucky|Rusty|Broken|Tipsy|Golden|Silver|Dusty|Crooked|Salty] "
 "[Anchor|Barrel|Nail|Horseshoe|Spoke|Lantern|Rooster|Mule|Spur|Whistle|Compass|Stag|Duck|Pony] "
 "[Saloon|Tavern|Bar|Taproom|Lounge|Bar & Grill]"},
{"wine bars", "wine", 1.5, 1.7, R, ALC | FIN | ADU,
 "new american|italian|french|cocktail bars",
 "wine flight|cheese board|charcuterie board|pinot noir|champagne|natural wine by the glass|burrata|"
 "marinated olives|flatbread|oysters|truffle fries|duck rillettes|bruschetta|prosciutto and melon|"
 "tinned fish|chocolate truffles|sparkling rose|orange wine|baked brie|sauvignon blanc",
 "[Vino|Vine|Cork|Barrel|Cellar|Terroir|Vintage|Grape|Decanter|Bottle|Rouge|Blanc|Uncorked|Stem] "
 "[Wine Bar|Wine Room|& Cheese|Wine Co.|Bar a Vin|Wine Lounge|Enoteca]"},
{"cocktail bars", "cocktails", 2, 1.7, R, ALC | ADU,
 "new american|bars|tapas",
 "old fashioned|negroni|espresso martini|mezcal margarita|paloma|manhattan|gin and tonic|whiskey sour|"
 "aperol spritz|house punch|smoked cocktail|bar snacks|truffle fries|sliders|deviled eggs|oysters|"
 "mai tai|penicillin|french 75|zero-proof cocktails",
 "[[The Velvet|The Gilded|Copper|Amber|Apothecary|Noble|Midnight|Blind Tiger|Bitters|Juniper|Vesper|"
 "Alchemist|The Hidden|Sazerac|Library|Speakeasy] [Lounge|Bar|Room|Cocktail Club|Social Club|Den]]"},
{"irish pub", "pub food", 0.8, 1.0, R, ALC | ADU,
 "bars|american|gastropubs",
 "fish and chips|shepherd's pie|bangers and mash|guinness|irish stew|corned beef and cabbage|reuben|"
 "irish coffee|scotch egg|beef and guinness pie|full irish breakfast|chips and curry sauce|potato leek soup|"
 "soda bread|pub burger|chicken wings|whiskey flight|cider|bread pudding|boxty",
 "[O'Malley's|Finnegan's|McGinty's|Murphy's|O'Reilly's|Flanagan's|Dubliner|Shamrock|Molly Malone's|Galway|"
 "Killarney|Kilkenny|Celtic|Emerald|Harp & Thistle|Brogan's|Donegal|Paddy's|Clover|Cork & Kerry] "
 "[Irish Pub|Pub|Tavern|Public House|Irish Bar|Ale House]"},
{"gastropubs", "pub food", 1, 1.4, R, ALC,
 "bars|american|burgers|new american",
 "pub burger|truffle fries|fried chicken sandwich|fish and chips|deviled eggs|pork belly|"
 "beer-battered onion rings|charcuterie board|brussels sprouts|mac and cheese|steak frites|craft beer|"
 "wings|pretzel with beer cheese|short rib|grilled cheese|cobb salad|poutine|sticky toffee pudding|"
 "smoked salmon flatbread",
 "The [Hop|Ale|Grain|Malt|Barley|Copper|Brick|Whiskey|Oak|Iron|Stag|Fox|Crown|Bell|Plough] "
 "[& Barrel|& Vine|& Kettle|House|Room|Tap|Hall|Social|Commons|Yard]"},
{"food trucks", "street food", 0.8, 0.2, K, CTR,
 "tacos|mexican|burgers|sandwiches|korean",
 "carne asada tacos|loaded fries|korean bbq tacos|lobster roll|grilled cheese|birria tacos|"
 "chicken rice plate|garlic fries|smash burger|falafel wrap|banh mi|churros|philly cheesesteak|poke bowl|"
 "gyros|hot dogs|quesadillas|mini donuts|fried chicken sandwich|crepes",
 "[[Rolling|Roaming|Curbside|Street|Lunchbox|Dashboard|Road|Four Wheels|Parked] "
 "[Tacos|Eats|Kitchen|Grill|Bites|Gourmet|Sliders|Street Food|Munchies|Cantina]|"
 "[Senor|Chef|Big|Little] [Sizzle|Nacho|Guapo|Kimchi|Grill|Bao|Smash|Crepe] [Truck|Food Truck|on Wheels]]"},
{"juice bars & smoothies", "smoothies", 1, 0.5, C, CTR,
 "vegan|cafe|salad",
 "acai bowl|green juice|cold-pressed orange juice|strawberry banana smoothie|protein smoothie|pitaya bowl|"
 "wheatgrass shot|ginger shot|mango smoothie|peanut butter smoothie|avocado toast|granola bowl|celery juice|"
 "matcha smoothie|detox juice|beet juice|chia pudding|turmeric latte|coconut water|almond butter toast",
 "[Juice|Blend|Squeeze|Press|Pulp|Green|Vital|Zest|Citrus|Sunny|Fresh|Bloom|Lush|Tropical|Raw|Pure] "
 "[Bar|Juicery|Smoothie Co.|Juice Co.|Blends|Bowl Co.|Lab|Station]"},
};

const size_t gen_cuisine_count = sizeof gen_cuisine_table / sizeof gen_cuisine_table[0];

const char gen_tea_items[] =
    "afternoon tea service|afternoon tea for two|scones with clotted cream|cucumber finger sandwiches|"
    "earl grey tea|english breakfast tea|lemon curd tart|petit fours|jasmine pearl tea|high tea set";

const char gen_kids_items[] =
    "kids chicken tenders|kids mac and cheese|kids cheese pizza|kids quesadilla|"
    "kids spaghetti with butter|kids grilled cheese|kids burger and fries|kids pancakes";

int gen_cuisine_find(const char *name)
{
    for (size_t i = 0; i < gen_cuisine_count; i++)
        if (!strcmp(gen_cuisine_table[i].name, name)) return (int)i;
    return -1;
}

void gen_list_split(gen_list *l, const char *s)
{
    size_t n = *s ? 1 : 0;
    for (const char *p = s; *p; p++) n += *p == '|';
    l->store = xstrdup(s);
    l->item = xcalloc(n ? n : 1, sizeof *l->item);
    l->n = 0;
    if (!n) return;
    char *p = l->store;
    for (;;) {
        l->item[l->n++] = p;
        char *bar = strchr(p, '|');
        if (!bar) break;
        *bar = 0;
        p = bar + 1;
    }
}

void gen_list_free(gen_list *l)
{
    free(l->store);
    free(l->item);
    l->store = NULL;
    l->item = NULL;
    l->n = 0;
}
