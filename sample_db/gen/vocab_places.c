/*
 * vocab_places.c — the four cities of the SUQL restaurant queries.
 *
 * Streets are paired with their real ZIP codes so addresses look right to a
 * local ("Valencia St ... 94110"); phone numbers use each city's real area
 * codes.  The share of restaurants per city follows the paper's data: San
 * Francisco the largest.  The bias column nudges the cuisine mix toward what
 * each place is known for (South Bay: Indian, Chinese, Taiwanese, boba).
 */
#include "vocab.h"

const gen_city gen_city_table[] = {
{"San Francisco", 0.45, "415|415|415|628",
 "Valencia St:94110|Mission St:94110|24th St:94110|16th St:94103|Market St:94102|Market St:94114|"
 "Castro St:94114|18th St:94114|Haight St:94117|Divisadero St:94117|Fillmore St:94115|Fillmore St:94123|"
 "Chestnut St:94123|Union St:94123|Polk St:94109|Larkin St:94109|Geary Blvd:94118|Clement St:94118|"
 "Irving St:94122|Judah St:94122|Noriega St:94122|Taraval St:94116|Ocean Ave:94112|Columbus Ave:94133|"
 "Grant Ave:94133|Stockton St:94108|Kearny St:94108|Bush St:94108|Sutter St:94104|Post St:94109|"
 "Folsom St:94103|Howard St:94105|2nd St:94107|3rd St:94107|King St:94107|Townsend St:94107|"
 "Hayes St:94102|Gough St:94102|Jefferson St:94133|Beach St:94133|The Embarcadero:94111|Front St:94111|"
 "California St:94108|Sacramento St:94115|Church St:94114|Cortland Ave:94110|West Portal Ave:94127|"
 "Balboa St:94121|Clement St:94121|Irving St:94122|Valencia St:94103|Grant Ave:94108|Columbus Ave:94111",
 100, 3999,
 "[the bay|the Bay Bridge|the Golden Gate Bridge|the city skyline|the water|Alcatraz and the bay|"
 "the sunset over the ocean|the whole city from up high]",
 "Mission|SoMa|Nob Hill|North Beach|Sunset|Richmond|Castro|Marina|Hayes Valley|Noe Valley|Potrero Hill|"
 "Dogpatch|Japantown|Haight|Embarcadero",
 "seafood:1.4|cocktail bars:1.4|dim sum:1.4|irish pub:1.4|wine bars:1.2|mexican:1.2|tacos:1.3|"
 "burgers:0.9|fast food:0.6|indian:0.8"},
{"Palo Alto", 0.19, "650",
 "University Ave:94301|Hamilton Ave:94301|Emerson St:94301|Ramona St:94301|Bryant St:94301|"
 "Lytton Ave:94301|Waverley St:94301|High St:94301|California Ave:94306|El Camino Real:94306|"
 "El Camino Real:94301|Middlefield Rd:94303|Middlefield Rd:94301|Alma St:94301|Park Blvd:94306|"
 "Birch St:94306|Embarcadero Rd:94303|San Antonio Rd:94303|Charleston Rd:94303|Homer Ave:94301|"
 "El Camino Real:94304|Stanford Shopping Center:94304",
 100, 4199,
 "[the foothills|the hills at sunset|the Stanford campus|the tree-lined street|the garden courtyard]",
 "Downtown|California Ave|Midtown|Stanford|Town & Country",
 "new american:1.4|californian:1.4|salad:1.5|juice bars & smoothies:1.5|fast food:0.6|irish pub:0.6"},
{"Sunnyvale", 0.20, "408|408|669",
 "S Murphy Ave:94086|E El Camino Real:94087|W El Camino Real:94087|S Mathilda Ave:94086|"
 "N Mathilda Ave:94085|S Wolfe Rd:94086|E Fremont Ave:94087|Hollenbeck Ave:94087|"
 "Sunnyvale Saratoga Rd:94087|N Fair Oaks Ave:94085|E Evelyn Ave:94086|W Washington Ave:94086|"
 "S Lawrence Expy:94087|E Homestead Rd:94087|N Lawrence Expy:94085|W McKinley Ave:94086|"
 "S Frances St:94086|Persian Dr:94089|Borregas Ave:94089|E Java Dr:94089|W Iowa Ave:94086",
 100, 1999,
 "[the foothills|the Santa Cruz Mountains|the sunset over the hills|the plaza fountain|the valley lights]",
 "Downtown|Murphy Ave|Lakewood|Cherry Chase|Ortega Park",
 "indian:1.8|chinese:1.4|korean:1.4|taiwanese:1.6|bubble tea:1.8|hot pot:1.5|vietnamese:1.3|"
 "halal:1.5|cocktail bars:0.6|seafood:0.8"},
{"Cupertino", 0.16, "408|408|669",
 "Stevens Creek Blvd:95014|N De Anza Blvd:95014|S De Anza Blvd:95014|N Wolfe Rd:95014|"
 "Homestead Rd:95014|Bubb Rd:95014|Bandley Dr:95014|Saratoga Sunnyvale Rd:95014|Vallco Pkwy:95014|"
 "Blaney Ave:95014|Miller Ave:95014|Portal Ave:95014|Town Center Ln:95014|Mary Ave:95014|"
 "Foothill Blvd:95014|S Stelling Rd:95014|McClellan Rd:95014|Pruneridge Ave:95014|Main St:95014",
 10000, 22999,
 "[the Santa Cruz Mountains|the foothills|the vineyards up the hill|the valley at sunset|the hills]",
 "Main Street|De Anza|Rancho Rinconada|Monta Vista|Vallco",
 "chinese:1.6|taiwanese:1.8|bubble tea:2.0|korean:1.4|hot pot:1.6|indian:1.5|japanese:1.2|"
 "bars:0.5|irish pub:0.3|cocktail bars:0.5|soul food:0.5"},
};

const size_t gen_city_count = sizeof gen_city_table / sizeof gen_city_table[0];
