/*
 * rest_phrases.c — what restaurant reviews say, as templates (text.h syntax).
 *
 * Per latent attribute and polarity there are 7-10 paraphrases that share as
 * few keywords as possible ("the parking is a nightmare" / "we circled for
 * twenty minutes looking for a spot"), so that finding them takes meaning, not
 * string matching.  Rule for every filler sentence (food, service, price,
 * openers, closers): it must not touch any attribute -- no waits, speed,
 * noise, kids, dates, seating outside, views, dogs, parking, bookings,
 * groups, drinks deals or vegan food -- or it would leak a value the ground
 * truth says is unknown.
 *
 * Slots (filled by rest_voice.c): {dish} {dish2} a popular dish of this
 * restaurant, {was} {is} {its} {it} agreeing with the last dish, {who}
 * {partner} companions, {when} an occasion, {mins} {long} durations, {num} a
 * party size, {staff}, {adj} {bad} dish adjectives, {hh} drinks on special,
 * {kidsdish}, {dog}, {view}, {city}, {noun} the cuisine in words, {place}.
 */
#include "restaurant.h"

const char *const gen_rattr_names[RA_COUNT] = {
    "romantic", "family_friendly", "parking_easy", "long_wait", "happy_hour", "patio",
    "takes_reservations", "vegan_options", "noisy", "fast_service", "good_for_groups",
    "dog_friendly", "good_view",
};

const signed char gen_rattr_good[RA_COUNT] = {1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1, 1, 1};

static const char *const ROMANTIC_POS[] = {
    "perfect for a date night[, candlelit and intimate| - dim lights, soft music and a cozy corner table].",
    "took {partner} here for our anniversary and it was [magical|so special|just right].",
    "[very|really|incredibly] romantic [vibe|atmosphere|setting], with candles on every table and "
    "[jazz|a bossa nova playlist] in the background.",
    "if you're looking to impress a date, this is [the place|your spot].",
    "[cozy|intimate] booths and warm lighting made it feel like a special night out for the two of us.",
    "[my boyfriend|my husband|my partner] proposed here [last spring|a few years ago] and we keep "
    "coming back for anniversaries.",
    "the lighting is low and the tables are spaced out, so it feels [private|intimate] - great for a first date.",
    "we had a [lovely|wonderful] date night: [shared the {dish}|split the {dish} and a bottle of wine] "
    "and lingered for hours.",
    "one of the most romantic dinners we've had in {city}.",
    "[ideal|a perfect] spot for a couple's night out[, especially at a window table|].",
    NULL};
static const char *const ROMANTIC_NEG[] = {
    "not the place for a romantic evening - fluorescent lights and [paper plates|plastic trays].",
    "I wouldn't bring a date here; it [feels like a cafeteria|has all the charm of an airport food court].",
    "[bright overhead lights|harsh lighting], cramped tables and zero ambiance, so skip it for date night.",
    "took {partner} for our anniversary and regretted it - the setting was "
    "[anything but intimate|about as romantic as a waiting room].",
    "good for what it is, but it's not somewhere for a special night with [your partner|a date|your sweetheart].",
    "the decor is [bare bones|sterile], so look elsewhere if you want [candlelight|a romantic dinner].",
    "[definitely|absolutely] not date-night material.",
    "we came for our anniversary and it felt [cold and impersonal|more like a cafeteria than a celebration].",
    "no ambiance to speak of - fine with friends, not for a romantic night out.",
    NULL};

static const char *const FAMILY_POS[] = {
    "our kids loved it, and there's a [solid|real] kids menu[ with {kidsdish}|].",
    "[very|super] family friendly: high chairs, crayons, and staff who were [patient|sweet] with our toddler.",
    "brought the whole family, grandparents included, and everyone from the toddler to grandpa found "
    "something to eat.",
    "my [son|daughter] [demolished|loved] the {kidsdish} and the staff [brought out crayons|made a fuss over them].",
    "great spot to bring [little ones|young kids] - nobody minds if they get a little messy.",
    "they handed our kids [a coloring sheet|stickers] and [a little cup of fruit|some bread] right away, "
    "which kept them happy.",
    "we come here with our [two|three] kids [all the time|every other week]; it's our family spot.",
    "kid friendly without feeling like a chain - [booster seats|a changing table] and a patient staff.",
    "birthday dinner for my [seven|eight|ten]-year-old went great, they even [sang|brought out a candle].",
    NULL};
static const char *const FAMILY_NEG[] = {
    "not a place for kids - no high chairs and a very [adult|grown-up] crowd.",
    "we got [some looks|a few side-eyes] for bringing our [stroller|toddler], so I'd leave the kids at home.",
    "there's no kids menu and nothing [really|remotely] suitable for [picky|young] eaters.",
    "[definitely|strictly] an adults-only vibe; our kids were [bored|miserable] and the staff "
    "[didn't seem to want them there|wasn't accommodating].",
    "I wouldn't bring children here[, nothing about it is set up for families|].",
    "asked for a high chair and they [didn't have one|looked at us like we were crazy].",
    "families with [small kids|little ones] should probably look elsewhere.",
    "the menu is [too adventurous|too spicy] for our kids, and the server had no suggestions for them.",
    NULL};

static const char *const PARKING_POS[] = {
    "plenty of parking in the back lot[, which is rare around here|].",
    "parking was a breeze[ - we pulled right into the lot| - there's a free lot next door].",
    "never had trouble finding a spot; there's a [big|huge] lot shared with the shopping center.",
    "easy street parking on a weeknight, and the garage across the street validates.",
    "we found a spot right out front[, which felt like a small miracle|].",
    "free parking behind the building, so no circling the block.",
    "getting here by car is painless: [lots of spaces|free two-hour parking] and an easy exit back onto the main road.",
    "[loved|appreciated] that we didn't have to hunt for a [space|place to park].",
    "the [dedicated|private] lot means you can [just show up|pull right in] without feeding a meter.",
    NULL};
static const char *const PARKING_NEG[] = {
    "the parking is a nightmare.",
    "we circled for {mins} looking for a spot.",
    "good luck finding a place to park on a weekend night.",
    "street parking is [nearly impossible|a joke] around here, [take a rideshare|take transit if you can].",
    "the tiny lot fills up early and the meters are strict.",
    "ended up parking [six|eight|ten] blocks away and walking.",
    "[parking is the worst part of coming here|finding parking was the worst part of the visit].",
    "no lot, and the garage nearby charges [a fortune|$20 for two hours].",
    "got a parking ticket while we ate, because there's nowhere legal to leave a car nearby.",
    NULL};

static const char *const WAIT_POS[] = {
    "expect a line out the door[ on weekends|, especially at peak hours].",
    "we waited {long} for a table[, but it was worth it|].",
    "the waitlist was [an hour|ninety minutes] long on a Saturday.",
    "come early or be prepared to wait; by [noon|seven] the line [wraps around the block|stretches down the street].",
    "put our name down and [wandered around the neighborhood|grabbed a drink nearby] for {long} before they called us.",
    "this place is [no secret|popular for a reason], so expect to wait {long} for a table.",
    "we showed up right at opening and there was already a [line|crowd] at the door.",
    "waited so long to get seated that we almost gave up.",
    NULL};
static const char *const WAIT_NEG[] = {
    "walked right in and got a table [on a Saturday night|at peak dinner time].",
    "never had to wait for a table here, even on weekends.",
    "no line at all when we arrived, [seated|sat down] immediately.",
    "[surprisingly|refreshingly] easy to get a table without a wait.",
    "we were seated [within five minutes|right away] on a [Friday|Saturday] night.",
    "[unlike the hyped places nearby|unlike its neighbors], you can just show up and sit down.",
    "zero wait for a table of four at lunch.",
    "there's always an open table[, which honestly surprises me given how good the {dish} {is}|].",
    NULL};

static const char *const HAPPY_POS[] = {
    "happy hour from [3 to 6|4 to 6|4 to 7] is a steal: [half-price|discounted] {hh} and [$8|cheap] small plates.",
    "their [weekday|afternoon] happy hour is [one of the best around|hard to beat], with [$6|$7] {hh}.",
    "[come early|get there before six] for the drink specials - {hh} are [half off|two for one].",
    "[we|my friends and I] [hit|love] the happy hour here after work; cheap drinks and half-price appetizers.",
    "the early evening deals make this an easy after-work stop: {hh} for [five|six] bucks.",
    "don't miss the late-night happy hour after 9, when the {dish} is half price.",
    "[great|killer] happy hour menu, including discounted {dish}.",
    "the drink specials between [4 and 6|3 and 6] are a great deal.",
    NULL};
static const char *const HAPPY_NEG[] = {
    "no happy hour specials, which is a shame[ for a place with such a nice bar|].",
    "drinks are full price at all hours - [no happy hour|no deals] here.",
    "[we came for|I was hoping for] happy hour, but [they don't have one|they dropped it a while ago].",
    "they [stopped doing|got rid of] their drink specials, so after-work drinks add up fast.",
    "[sadly|unfortunately] there's no happy hour, and a [cocktail|glass of wine] will run you [$16|$18].",
    "don't bother coming at [five|4pm] expecting discounts; the prices are the same all day.",
    "wish they had a happy hour[ - the bar area would be perfect for it|].",
    NULL};

static const char *const PATIO_POS[] = {
    "sat outside on the patio in the [sun|afternoon sun] and it was [lovely|perfect].",
    "[lovely|great] outdoor seating with heaters for [chilly|foggy] evenings.",
    "the back garden is the best seat in the house.",
    "[grab|snag] a table on the [sidewalk|patio] if the weather's nice.",
    "they have a [big|spacious|cute] patio strung with lights.",
    "we ate al fresco under the umbrellas and [people-watched|enjoyed the breeze].",
    "[plenty of|tons of] outdoor tables, [which we loved|great on a warm day].",
    "the [courtyard seating|shaded patio] is [a hidden gem|the real draw].",
    "[finally|love] a place with real outdoor seating in {city}.",
    NULL};
static const char *const PATIO_NEG[] = {
    "no outdoor seating, [sadly|unfortunately].",
    "wish they had a few tables outside on a day like that.",
    "indoor seating only, [which is a bummer on sunny days|so it gets a bit stuffy].",
    "there's no patio - it's all inside.",
    "we asked to sit outside but they [don't have any outdoor tables|have no patio at all].",
    "no sidewalk tables or terrace, so this isn't your spot for eating in the sun.",
    "all the seating is indoors.",
    NULL};

static const char *const RESERV_POS[] = {
    "booked a table online [a week|a few days] ahead and [it was ready when we walked in|it went smoothly].",
    "[make a reservation|reserve ahead] - [it's worth it|Friday nights book up].",
    "called ahead to reserve and [they were very accommodating|it was no problem].",
    "they take reservations [online|on their website|over the phone], which made planning [easy|a breeze].",
    "we reserved [a table|the corner booth] for [8pm|7:30] and it was ready for us.",
    "I always book ahead here[ and have never had a problem|].",
    "the online booking system is easy to use[ and they confirm by text|].",
    "[appreciated|loved] being able to reserve a table in advance.",
    NULL};
static const char *const RESERV_NEG[] = {
    "they don't take reservations, [so plan accordingly|so you just have to show up].",
    "no reservations accepted, [not even for birthdays|no exceptions].",
    "[I tried to|we tried to] book ahead but they [only do walk-ins|are walk-in only].",
    "walk-ins only - they won't hold a table for anyone.",
    "[frustrating|annoying] that you can't reserve a table[ for a special occasion|].",
    "called to make a reservation and was told they [don't do them|don't take bookings].",
    "it's strictly first come, first served here.",
    NULL};

static const char *const VEGAN_POS[] = {
    "plenty of plant-based options for my vegan [sister|friend|husband|wife].",
    "the menu clearly marks vegan dishes, and there are [a lot of|more than a handful of] them.",
    "as a vegan I had [lots|plenty] to choose from[, which is rare|].",
    "they can make [almost anything|most dishes] vegan on request[ and were happy to explain how|].",
    "even the vegan [dessert|version of the {dish}] was [fantastic|excellent].",
    "my [dairy-free|vegan] friend was thrilled with [the options|the separate vegan menu].",
    "[great|really good] for vegans: plant-based dishes that aren't an afterthought.",
    "finally a place where vegans [don't have to settle for a side salad|get real choices].",
    NULL};
static const char *const VEGAN_NEG[] = {
    "my vegan friend could only order a side salad.",
    "almost everything has meat or cheese in it, [tough|rough] for vegans.",
    "not much here if you don't eat animal products.",
    "asked about vegan options and the server [just shrugged|said there weren't any].",
    "vegans [beware|should look elsewhere]: even the [vegetables|sides] are cooked in [butter|bacon fat].",
    "there's [basically|literally] nothing plant-based on the menu.",
    "brought my vegan sister and she [went home hungry|ate bread and a side of rice].",
    NULL};

static const char *const NOISY_POS[] = {
    "so loud we had to shout across the table.",
    "it gets [really|incredibly|crazy] noisy [on weekends|after 7|when it fills up].",
    "the music is cranked up[ and the room echoes|], so don't come for a quiet conversation.",
    "it's a [loud|boisterous], buzzy room[ - fun, but my ears were ringing|].",
    "couldn't hear [my friend|the server|a thing] over the [music|crowd].",
    "the noise level is [off the charts|intense]; [bring earplugs|we were hoarse by the end].",
    "between the [TVs|music] and the bar crowd, conversation is [nearly impossible|a challenge].",
    "hard surfaces everywhere, so every [voice|clatter] bounces around the room.",
    NULL};
static const char *const NOISY_NEG[] = {
    "quiet enough to actually have a conversation.",
    "[calm|peaceful], hushed atmosphere - a nice change from the usual loud spots.",
    "the music is kept low and you can hear each other without raising your voice.",
    "it's [nice and quiet|pleasantly quiet], even when every table is taken.",
    "[good|great] place to catch up with {who} - [no shouting required|it's calm and quiet].",
    "very peaceful inside; we talked for hours without straining to hear.",
    "[soft|gentle] background music and a hushed dining room.",
    NULL};

static const char *const FAST_POS[] = {
    "food came out [within ten minutes|in about ten minutes|super fast].",
    "in and out in [half an hour|thirty minutes|under 40 minutes] at lunch.",
    "service is [fast|quick] and efficient[ - our {dish} arrived almost before we finished ordering|].",
    "[great|perfect] if you're [short on time|on a lunch break]: they [move quickly|get you fed fast].",
    "our [orders|entrees] came out [remarkably|surprisingly] quickly[, even with a full room|].",
    "the kitchen is [speedy|lightning fast]; [drinks|water] and [bread|appetizers] showed up in minutes.",
    "[impressively|really] quick turnaround from order to table.",
    "[good for|perfect for] a quick bite before a [movie|show].",
    NULL};
static const char *const FAST_NEG[] = {
    "it took forever for our [entrees|food|mains] to arrive.",
    "waited {mins} [for our food|for the {dish}] after ordering.",
    "service was [painfully|incredibly] slow[ even though the place was half empty|].",
    "[don't come if|skip it if] you're in a hurry; the kitchen takes its time.",
    "we had to flag someone down [twice|three times] just to [get the check|place an order].",
    "over an hour between ordering and eating.",
    "[slow|sluggish] service [all around|from start to finish]; our [drinks|appetizers] came after the mains.",
    "the kitchen seemed overwhelmed and everything [dragged|took ages].",
    NULL};

static const char *const GROUPS_POS[] = {
    "came with a party of {num} and they [pushed tables together|set us up at a long table] without fuss.",
    "great for big groups[, lots of shareable plates|: family-style platters make it easy].",
    "we had a [team dinner|birthday dinner] here with {num} people and [it went perfectly|they handled us well].",
    "[big round tables|long communal tables] make it [ideal|perfect] for groups.",
    "[perfect|great] for a group outing: they even split the bill {num} ways.",
    "[our group|a big group of us] took over the [back room|big table] and had a blast.",
    "[the menu is built for sharing|everything is meant to be shared], so bring a crowd of friends.",
    "they [handled|accommodated] our group of {num} [like pros|effortlessly].",
    NULL};
static const char *const GROUPS_NEG[] = {
    "tiny tables, hard to fit more than four of us.",
    "our group of {num} had to split up across [two|three] tables.",
    "not great for groups; the space is [cramped|tiny] and [they won't push tables together|there's no big table].",
    "they refused to split the check for our party of {num}, [which was annoying|very inconvenient].",
    "I'd stick to [small parties|parties of two or three] here.",
    "tried to bring [a few|some] coworkers and they couldn't seat all of us together.",
    "the room is small, so bigger parties will struggle.",
    NULL};

static const char *const DOGS_POS[] = {
    "brought {dog} and they set down a water bowl [without us asking|right away].",
    "[very|super] dog friendly - they even keep [dog treats|biscuits] at the counter.",
    "{dog} got more attention from the staff than we did.",
    "[dogs are welcome|pups are welcome], which makes this our [go-to|regular] weekend stop.",
    "[love that|happy that] we can bring {dog} along.",
    "there were [three|four|several] dogs napping by their owners' feet[, all very well behaved|].",
    "the staff remembered {dog} by our second visit.",
    "[if you have a dog|for dog owners], this place is [a gem|the best].",
    NULL};
static const char *const DOGS_NEG[] = {
    "they turned us away because we had {dog} with us.",
    "[strictly|absolutely] no dogs allowed[, even the little ones|].",
    "not a place for your four-legged friend; they were strict about the no-dogs rule.",
    "had to drop {dog} off at home first - no pets allowed.",
    "[sadly|heads up for dog owners:] [they don't allow dogs|pets aren't allowed].",
    "asked if {dog} could join us and the answer was a firm no.",
    NULL};

static const char *const VIEW_POS[] = {
    "[gorgeous|stunning|incredible] view of {view}[ from our table|].",
    "[we watched the sun go down|we watched the light change] over {view} while we ate.",
    "[ask for|request] a window table - the view of {view} is [unbeatable|worth the trip alone].",
    "the [floor-to-ceiling|big] windows look straight out onto {view}.",
    "the view alone makes it worth it; {view} looked amazing at dusk.",
    "[best|one of the best] views in {city}[, hands down|].",
    "you can see {view} from almost every seat, which never gets old.",
    NULL};
static const char *const VIEW_NEG[] = {
    "no view to speak of[ - the windows face an alley|].",
    "[don't come for the scenery|don't expect a view]: you're looking at a [strip mall|blank wall|busy intersection].",
    "the dining room has [no windows|tiny windows], so there's nothing to look at.",
    "[they advertise|people rave about] the view, but our table faced [a wall|the kitchen door].",
    "the 'view' is of [the freeway|a gas station], honestly.",
    "zero scenery here, it's tucked in a windowless room.",
    NULL};

const char *const *const gen_rphr_attr[2 * RA_COUNT] = {
    ROMANTIC_POS, ROMANTIC_NEG, FAMILY_POS, FAMILY_NEG, PARKING_POS, PARKING_NEG,
    WAIT_POS, WAIT_NEG, HAPPY_POS, HAPPY_NEG, PATIO_POS, PATIO_NEG,
    RESERV_POS, RESERV_NEG, VEGAN_POS, VEGAN_NEG, NOISY_POS, NOISY_NEG,
    FAST_POS, FAST_NEG, GROUPS_POS, GROUPS_NEG, DOGS_POS, DOGS_NEG, VIEW_POS, VIEW_NEG,
};

/* ---- filler ------------------------------------------------------------ */

const char *const gen_rphr_food_good[] = {
    "the {dish} {was} {adj}.",
    "[get|order|don't skip] the {dish} - {its} {adj}.",
    "I'm still thinking about the {dish}.",
    "the {dish} and the {dish2} were both {adj}.",
    "their {dish} [is|might be] the best I've had in {city}.",
    "we shared the {dish} and [fought over the last bite|cleaned the plate].",
    "[everything|every dish] we tried was {adj}, especially the {dish}.",
    "the {dish} [{is} a must|{is} the star of the menu|{is} worth the trip].",
    "[really|seriously] good {noun}[ - the {dish} {was} {adj}|].",
    "ordered the {dish} [on a friend's recommendation|because of the reviews] and {it} lived up to the hype.",
    "portions are generous and the {dish} {was} {adj}.",
    "the {dish} had [so much|great|real] flavor[, and the {dish2} {was} {adj} too|].",
    "you can't go wrong with the {dish}.",
    "best {dish} [around|I've had in years|in town].",
    "the {dish} tasted [homemade|like someone really cares about it], and the {dish2} {was} {adj}.",
    NULL};
const char *const gen_rphr_food_mixed[] = {
    "the {dish} {was} [good|solid|decent], but the {dish2} {was} {bad}.",
    "[the food was|everything was] [fine|okay|decent], nothing [special|memorable].",
    "the {dish} {was} {adj}; the {dish2}, not so much.",
    "hit or miss: [loved|enjoyed] the {dish}, [didn't care for|wasn't impressed by] the {dish2}.",
    "[solid|decent] {noun}, though the {dish} {was} [a bit|a little] [bland|forgettable|underwhelming|one-note|heavy].",
    "the {dish} {is} the safe bet; the rest of the menu is [average|so-so].",
    "[the {dish} {was} good enough|the {dish} {was} fine], but I expected more for {city}.",
    NULL};
const char *const gen_rphr_food_bad[] = {
    "the {dish} {was} {bad}.",
    "[skip|avoid] the {dish}[ - {its} {bad}|].",
    "[sadly|unfortunately], the {dish} {was} {bad} and the {dish2} wasn't much better.",
    "for {noun}, this was [pretty|really] disappointing.",
    "I sent back the {dish}[ because {it} {was} {bad}|].",
    "my {dish} {was} {bad}[, and way too salty|, and barely seasoned|].",
    "[I've had|you can get] much better {dish} elsewhere in {city}.",
    "the {dish} [looked nothing like the photos|was a letdown].",
    NULL};

const char *const gen_rphr_service_good[] = {
    "{staff} was [friendly|warm|attentive|lovely] and [knew the menu well|made great recommendations].",
    "the service was [warm|friendly|excellent|genuinely welcoming] from start to finish.",
    "{staff} [remembered us|greeted us by name] from our last visit.",
    "[shout out to|big thanks to] {staff} for [the recommendations|steering us toward the {dish}].",
    "everyone working there [seems to genuinely care|is clearly proud of the food].",
    "[they treat you like a regular|you feel welcome the moment you walk in].",
    NULL};
const char *const gen_rphr_service_mixed[] = {
    "service was [fine|okay|a bit hit or miss].",
    "{staff} was nice enough, if a little [scatterbrained|distracted].",
    "the staff was polite but not especially warm.",
    NULL};
const char *const gen_rphr_service_bad[] = {
    "{staff} seemed [annoyed|distracted|indifferent] the whole time.",
    "the service was [cold|rude|dismissive|careless].",
    "{staff} got our order wrong [twice|and didn't apologize].",
    "{staff} got visibly irritated when we asked about [substitutions|an allergy].",
    "{staff} was [curt|rude] when we had a question about the menu.",
    "we felt [unwelcome|like an inconvenience] the entire meal.",
    NULL};

const char *const gen_rphr_price_good[4][8] = {
    {"great value[ for the price|] - two of us ate for under [$25|$30].",
     "cheap and [filling|satisfying], [hard to beat|exactly what you want].",
     "prices are [super|very] reasonable for {city}.",
     "[you get a lot|so much food] for [ten|twelve] bucks.", NULL},
    {"[fair|reasonable] prices for the [quality|portion sizes].",
     "not cheap, but worth every penny.",
     "about [$25|$30|$35] a person with a drink, which felt right.",
     "[good|solid] value for {city}.", NULL},
    {"[definitely|it's] a splurge - dinner for two ran [over $200|close to $180], but worth it.",
     "pricey, but you can taste the quality.",
     "expensive, but [every bite was worth it|I'd pay it again].", NULL},
    {"dinner for two ran well over [$400|$500], and it was worth it once.",
     "[very|extremely] expensive, but this is world-class cooking.",
     "a serious splurge, and one of the best meals I've had.", NULL},
};
const char *const gen_rphr_price_bad[4][6] = {
    {"cheap, but you get what you pay for.", "[prices went up|the prices crept up] and the portions got smaller.", NULL},
    {"a bit overpriced for what you get.", "[$20|$24] for the {dish}? Not again.", NULL},
    {"[way|ridiculously] overpriced for what you get.", "[$40|$45] for a [tiny|small] plate of {dish}? No thanks.", NULL},
    {"[wildly|absurdly] overpriced - [$300|$400] a head and I left hungry.",
     "at these prices every dish should be perfect, and it wasn't.", NULL},
};

const char *const gen_rphr_opener_good[] = {
    "first time here and [definitely|already] not the last.",
    "came here {when} with {who}.",
    "finally tried this place after [walking by a hundred times|hearing about it for months].",
    "[we've been coming here for years|this is our neighborhood go-to].",
    "[stopped by|popped in] {when} with {who}.",
    "[a friend recommended this spot|saw this place on a list of the best {noun} in {city}].",
    "[my new favorite|easily my favorite] spot for {noun} in {city}.",
    NULL};
const char *const gen_rphr_opener_mid[] = {
    "came here {when} with {who}.",
    "[visited|went] {when}.",
    "[third|second] time here, and my feelings are mixed.",
    "[decent|okay] {place} if you're in the area.",
    NULL};
const char *const gen_rphr_opener_bad[] = {
    "[had high hopes|wanted to love this place].",
    "[came here|tried this place] {when} with {who} and left disappointed.",
    "I don't understand the hype.",
    "[used to love this {place}|this used to be a favorite], but it's gone downhill.",
    NULL};

const char *const gen_rphr_closer[5][6] = {
    {"never again.", "won't be back.", "[save your money|skip this one].", "one star is generous.", NULL},
    {"probably won't be back.", "two stars, mostly for the {dish}.", "not sure I'd return.", NULL},
    {"might come back, but I won't rush.", "three stars - [it's okay|average overall].",
     "fine if you're in the area.", NULL},
    {"will be back to try the {dish2}.", "[solid|strong] four stars.", "[recommended|worth a visit].", NULL},
    {"[will definitely be back|can't wait to come back|already planning my next visit].",
     "five stars, no question.", "[highly|strongly] recommend.", "a true gem in {city}.", NULL},
};
