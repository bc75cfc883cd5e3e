"""Detection benchmark for the volume checks, on generated estates unlike the demo.

    .venv/bin/python benchmarks/detection_bench.py [--seeds 1,2,3] [--estates a,b] [--quick]
                                                  [--warehouse gl_month_end] [--json out.json]

Each estate is a generated series per group (five entities / markets / sources) with its own trend,
seasonal shape, holiday calendar, noise and level shifts, from a fixed seed. For every evaluated
partition the checks see only the clean history before it (the SQL aggregate the check reads:
one point per partition and group), and the partition is judged clean and with each fault:
drops of 10/20/35/50/80%, empty, duplicated, one of five groups missing, late (the load still
running: 0-30% of the rows there at check time). Reported per estate over the seeds: recall per
fault, the false-alarm rate on clean partitions (split into ordinary ones, period ends, holidays
and their neighbourhoods, Ramadan, and the weeks after a level shift), for our volume check
(`dw_assets.core.volume_model`, grouped: the total and every group) and, in the same run, an
Elementary-style z-score (the 14 previous points, |z| > 3) on the table total without
seasonality and with it (same weekday / same hour of day). Every false alarm is printed with
its ratio, band and comparison group.

Where the time goes: the model (a few fits of a few hundred points per series, six series per
partition); the aggregation is the warehouse's. The in-memory estates hand the model the
aggregated series directly; `--warehouse` estates (gl_month_end by default, on the first seed)
go through the product's own path instead: real rows in a DuckDB file, `count(*)` per partition
and group aggregated in SQL by `dw_assets.checks.volume.evaluate_volume`, one check per partition and
fault, as `dw checks run --partition` does (its rows show the cost per check).

The owner of an estate with a legitimate level shift accepts the first flagged partition of the
shift as a shift (`dw checks accept ... --shift`), as the product asks; that first flag is an
expected alarm (`shift_first`, shown per estate, not counted in the false-alarm rate: on its day a
step is the same observation as a fault of its size); every later partition of the shift counts.
Likewise an estate whose weekly pattern changes for good (`shape_at`: a weekend moved, weekend
service launched or cut): the owner accepts the first flagged partition within eight weeks of the
change as a shape change (`dw checks accept ... --shape`; `shape_first`, expected, shown, not
counted); every later flag counts.

Parameters of the model were chosen on seed 1 of the estates `gl_month_end`, `orders_us` and
`events_hourly`; the false alarms of `events_hourly` and `orders_de` were then read one by one to
fix the model's reasoning (small groups' spreads, in-sample errors, a holiday's occasions).
`sessions_jp_hourly`, `gl_month_end_noisy` and the three estates added then (`deliveries_id`,
`shipments_jp`, `signups_weekly`) were held out and only run afterwards. The false alarms of those
three were then read to build the second round (a holiday's neighbourhood and the first partition
after a closure as groups, groups that must stand out from the noise, shifts that do not start on
calendar days, a level from ordinary days); `shipments_cn`, `orders_br` and `events_dst_hourly`
were written before it and first run in the final run (held out); their false alarms were read for
the third round (neighbourhoods in working days, holiday names that survive bridge days, weekday
shapes re-baselined, groups chosen again after a level shift). `orders_in`, `payroll_uk_monthly`
and `tickets_weekend` were written before the third round changed the model and first run in its
final run (held out).
`checkouts_sydney_hourly` and `loads_la_hourly` (users in another time zone, daylight saving inside
the evaluated fortnight, a weekday x hour shape) were written before the model learned the check's
time zone, and first run in that round's final run (held out).
`logins_berlin_hourly` (spring forward and Easter inside the fortnight, a -20% step) and
`tickets_kolkata_hourly` (half an hour off UTC, partitions in business hours only) were written
before the hourly round (a holiday's effect by hour, neighbourhoods on hourly series; read from
`loads_la_hourly`'s false alarms) changed the model, and first run in its final run (held out).
`orders_sa` (a Friday/Saturday weekend that switches to Saturday/Sunday, Ramadan in no calendar,
Eid from the `holidays` package), `sales_445_monthly` (fiscal periods of a 4-4-5 retail calendar
dated on their closing Saturday) and `bookings_gb_weekly` (school holidays in no calendar, two
level shifts five weeks apart) were written before the fourth round (daily, weekly and monthly
series) changed the model, and first run in its final run (held out).
The fifth round's eleven (`journals_au`, `orders_fr`, `bookings_nl`, `subscriptions_ca`,
`payments_gb_il`, `telemetry_chicago_hourly`, `invoices_it_monthly`, `claims_de_weekly`,
`refunds_se`, `sellers_pl`, `rides_us`) were written blind, by someone who had read only the model's
public API, to look like other teams' data: a GL journal feed on business days with a three-day
month-end close and a June fiscal year, a history holding unlabelled incidents (partial loads, a
duplicated day, a two-day outage, a late day: `Estate.incidents`, read as history, never evaluated),
a table eight weeks old, a logistic launch ramp and a slow decline, a 1.5% market with its own week
and holidays, a weekly maintenance window on an hourly feed, a monthly series dated on the first of
the month, ISO weeks with week 53 and Easter weeks, a low-count table (Poisson counts, a small group
at zero some clean days) and a source launched mid-history (zeros, then a climb), and bike rides
with a strong yearly season and rainy days. They were committed before their first run on the model
as it stood (3c3a7a2). That first run's report was read for the sixth round (business days counted
from the month's end, a weekly series' week of the year, counts of a few rows, a holiday never seen
judged like the calendar's seen ones): they are no longer held out.
The seventh round (a fiscal year, a calendar per group, business days from the nearer end and a
quarter's close window, seasons such as Ramadan, a ramp's local trend) added `orders_eg` (Egypt,
Ramadan in no calendar), written before the season code and run on the model without it first, and
configured `journals_au`'s June fiscal year and `payments_gb_il`'s Israeli market as their owners
would. `orders_sa` ran once on its merged model, held out; its false alarms were read (an Eid
listed with a gap counted as two, a bug fixed), so it is no longer held out.
The eighth round (an owner-accepted weekly pattern, weekends as each country has them, Lunar New
Year's weeks) added `orders_vn` (Vietnam, a rush before Tet and a slow return after it), written
before the season code and run on the model without it first, and fixed `shipments_cn`'s generator
(its rush before a Spring Festival after the series' end fell on the series' last days).
The eighth round's three (`returns_kr`: Korean returns by carrier, Seollal and Chuseok closures followed
by a week of rising returns and a step landing on one carrier; `journals_sa`: a GL feed on a
Sunday-Thursday week with month, quarter and year closes, payroll journals, Eid gaps and Ramadan in no
calendar; `settlements_ca`: settlement files loaded on Ontario business days, each carrying every day
since the last load, so Monday holds the weekend and a holiday Monday moves it to Tuesday) were written
blind, from the bench's helpers and categories only, and held out until that round's final run.
Their false alarms were read for the ninth round, so they are no longer held out. The ninth round's four
(`payouts_us`: a payroll provider's payouts by product, four products, on US federal business days,
paydays on the 15th rolled back to the business day before a weekend or holiday and on the month's
last business day; `sales_au`: a New South Wales retailer's sales by channel, three channels, December
x1.25 and January x0.85, Boxing Day x2.5, stores closed on Christmas Day and Good Friday, a June
end-of-financial-year sale; `streams_gb`: UK daily plays by device, an owner-accepted -29% step on day
500 and an unaccepted linear +40% ramp over 21 days from day 640; `trips_mx_hourly`: Mexico City trips
per hour by zone, each zone its own day, Revolution Day in the evaluated fortnight) were written blind
the same way, each with its own number of groups, and are held out until that round's final run.
The tenth round's four (`payroll_ca_biweekly`: an Ontario payroll processor's files by kind, four kinds,
on business days, pay runs every second Friday (a 14-day cycle, rolled back to the business day before a
holiday Friday) x2.2 and a month-end batch on the month's last business day; `carnival_br`: a Brazilian
online shop's daily orders by channel, three channels of very unequal size (one of tens of orders a day),
Carnival Monday and Tuesday low (moved by Easter, configured by the owner), Ash Wednesday in no
calendar, Black Friday x3 after a week at x1.2, a Christmas season; `migration_nl`: Dutch daily API calls
by client platform, five platforms, an owner-accepted +25% step on day 470 and an unaccepted linear -50%
ramp down over 28 days from day 580 (clients moving to a new API), then a hold at half; `tickets_nz_weekly`:
New Zealand ticket sales per ISO week, two groups, a southern summer season, Easter and Christmas weeks,
three years of history and a 53-week year evaluated) were written blind the same way and are held out
until that round's final run.
The eleventh round's four (`calls_us_hourly`: a New York call centre's calls per hour by queue, three
queues, open 08:00-20:00 on weekdays and 09:00-14:00 on Saturdays, closed on Sundays and federal
holidays (a closed hour holds no rows, so no partition: business hours only), busiest on Monday
mornings, daylight saving's end and Veterans Day in the evaluated fortnight; `ledger_nz_monthly`: a
New Zealand group's monthly GL exports by entity, four entities, a fiscal year ending in March (the
year-end close x1.7, quarter closes x1.3, configured by the owner), +1%/month over five years;
`orders_cairo` (the brief's "orders_eg", a name the seventh round's estate holds): an Egyptian online
retailer's daily orders by category, three categories, a Friday/Saturday weekend, Ramadan lower by
day, Eid al-Fitr x0.5 for three days, a shopping week before Eid al-Adha declared as a season;
`rentals_es`: Spanish daily holiday-rental bookings by kind of stay, two kinds, a weekday shape that
flips in July and August (weekends high) against the rest of the year (weekdays high), August x1.6,
Spanish national holidays) were written blind the same way and are held out until that round's final
run.
The twelfth round's four (`deliveries_adelaide_hourly`: an Adelaide food-delivery app's orders per hour
by kind, two kinds, 24/7 in a half-hour zone with daylight saving (every point on :30 UTC; it starts
inside the evaluated fortnight, the day before South Australia's Labour Day), nights of a few orders an
hour; `lessons_nl_weekly`: a Dutch learning platform's lessons per ISO week by school region, three
regions, each at a tenth of its level in its own school holidays (a table of staggered spring, summer and
autumn breaks, in no calendar), a slow first week back and +5% each school year; `filings_gb`: a UK
tax-software vendor's self-assessment returns per day by filer, four filers, a run-up of weeks to the 31
January deadline (a Saturday in 2026; declared by the owner), a February tail and lull, the new tax
year's early filers; `transfers_jp`: a Japanese bank's corporate transfers per business day by kind, six
kinds, the gotobi settlement days rolled back, salaries on the 25th (declared), dues rolled forward,
Golden Week, Obon and the year-end closure, with autocorrelated (AR(1)) noise) were written blind the
same way and are held out until that round's final run.
The thirteenth round's four (`registrations_kathmandu_hourly`: a Kathmandu hospital group's outpatient
registrations per hour by hospital, three hospitals, in a zone 45 minutes off the hour (every point on :15
UTC), desks open 07:00-17:00 with a lunch closure at 13:00 (no partition: a gap inside each day), Friday
mornings only, closed on Saturdays and Nepali holidays, the days before Tihar's closure low and the day
after it high, Tihar inside the evaluated fortnight; `takings_gb_fourweekly`: a British pub company's till
transactions per fiscal period by estate, two estates, thirteen four-week periods in a 52-53 week year
ending on the Sunday nearest 31 March (the 53-week year's last period five weeks long, evaluated),
Christmas and Easter periods, football tournaments in no calendar; `grocer_toronto`: a Toronto Asian
supermarket chain's transactions per day by store, four stores with their own weeks, Lunar New Year's rush
and the Mid-Autumn Festival's mooncake weeks (moving with the moon, in no calendar), a freezing-rain day in
the history; `usage_sg`: a Singapore start-up's API usage per day by plan, five plans, compounding 8% a
month, a migration step accepted in the history, billing runs on the third business day, and real bursts
of one plan (heavy-tailed)) were written blind the same way and are held out until that round's final run.
The fourteenth round's four (`helpline_santiago_hourly`: a Chilean health hotline's answered calls per hour
by line, three lines, 24/7 in a zone whose daylight saving ends at local midnight (Holy Saturday's 23:00
twice, a 25-hour local day, inside the evaluated fortnight with Good Friday), 12-hour shifts changing at
08:00 and 20:00 (the handover hour low, the next high), nights of a handful of calls; `groceries_il_weekly`:
an Israeli online supermarket's orders per Israeli week (Sunday to Saturday) by region, six regions,
Shabbat and the festivals closed, the Hebrew calendar's festivals moving between years with their eve
rushes and intermediate days, Jerusalem swinging further, a disruption in the history; `contracts_ie`: a
Dublin software company's signed order forms per day by sales motion, four motions, a fiscal year ending
in January, each quarter's last fortnight pushed (x1.5, the year's x1.9) and the week after a close low,
renewals barely moved; `bakeries_pt`: a Lisbon bakery chain's receipts per day by shop, five shops, the
neighbourhood shops' Sunday opening accepted in the history, centre and neighbourhood shops moving apart in
summer, one shop closed for its August fortnight (in no calendar), the Santos Populares) were written blind
the same way and are held out until that round's final run.
The fifteenth round's four (`payments_lord_howe_hourly`: Lord Howe Island's card payments per hour by kind of
merchant, three kinds, opening hours only, in a zone whose daylight saving moves the clock by half an hour (its
partitions on the UTC hour before the change and on :30 UTC after it, inside the evaluated fortnight), a
fortnightly supply ship in no calendar; `payments_ke_monthly`: a Kenyan county's supplier payment lines per
month by department, five departments, a fiscal year ending in June (July x0.5, June's budget rush x1.6, each
department swinging its own distance), fourteen months of the history backfilled from a legacy archive at
x0.6; `outages_gr`: a Greek distribution operator's outage reports per day by region, four regions each with
its own year (the islands' tourist summer, the north's winter), heat waves and cold snaps in no calendar;
`canteens_br`: a Brazilian school-canteen app's orders per day by city, two cities, term time only, each city's
school holidays declared (a southern school year starting in February) and its own holidays, weekends near
zero, each term's slow first week) were written blind the same way and are held out until that round's final
run.
The sixteenth round's four (`orders_hk_hourly`: a Hong Kong broker's order messages per trading hour by channel,
three channels, two sessions with a lunch gap and a closing auction, Hong Kong's holidays closed, the Stock Connect
channel on the mainland's calendar too (zero on Golden Week days Hong Kong trades, a catch-up when it reopens),
a typhoon morning cancelled in no calendar, inside the evaluated fortnight; `admissions_ar`: a Buenos Aires hospital
group's admissions per day by service, four services, Argentina's holidays and bridge days, scheduled surgery on
weekdays, a winter influenza season peaking on its own day and at its own height each year, in no calendar;
`reads_za`: a South African municipality's water-meter reads per day by depot, three depots, each month's meters
spread over its business days but the last three (the billing run), so a short month reads more a day,
load-shedding days in no calendar carrying reads to the next business day, a township joining one depot (an
accepted step); `loans_fi_weekly`: a Finnish university library's loans per ISO week by campus, four campuses, four
teaching periods each ending in an exam week, breaks and summer declared by the owner, medicine's summer
rotations, an orientation week in no calendar, a strike week in the history, 2026's week 53 evaluated) were
written blind the same way and are held out until that round's final run.
The seventeenth round's four (`taps_bangkok_hourly`: a Bangkok fare-clearing house's taps per service hour by line,
three lines, 06:00-23:59 local only, Chakri Day and Songkran (13-15 April 2026) inside the evaluated fortnight, the
exodus before it and the return after it in no calendar, Silom Road's water fight lifting one line's Songkran
afternoons, a thunderstorm evening, the airport line's flat fare accepted as a step, a signalling fault in the
history; `donations_tr`: a Turkish charity's online donations per day by kind of gift, four kinds, Fridays high,
Ramadan's zakat, the proxy-sacrifice run-up of three weeks before Kurban Bayramı closing on its eve (in no
calendar), the kandil nights (in no calendar), a bank's donate menu accepted as a step, a gateway outage in the
history; `appointments_no_weekly`: a Norwegian dental chain's appointments per ISO week by clinic, five clinics, the
fellesferie declared as a break but one clinic taking its own three weeks a week later, the catch-up after it, a
pre-Christmas rush, a state subsidy's step accepted in January 2026; `checkins_co_pe`: a gym chain's check-ins per
day by club, six clubs, four in Colombia on its calendar (the Emiliani law's Monday holidays and their puentes) and
two in Lima on Peru's own, January's resolutions, Lima's beach-season weekends and the year-end lull in no
calendar, a club's expansion accepted as a step) were written blind the same way and are held out until that
round's final run.
The eighteenth round's four (`remittances_manila_hourly`: a Philippine pawnshop chain's remittance pay-outs per branch
hour by region, four regions, a six-day week (Sundays and holidays the mall branches only, shorter hours), the
Immaculate Conception inside the evaluated fortnight, December's Christmas remittances climbing, the 13th-month pay
sent home from the 15 December payroll and a typhoon signal closing the Visayas' branches for a day (in no calendar),
a takeover of Mindanao branches accepted as a step, a core-system outage in the history; `diy_pl`: a Polish DIY
chain's receipts per day by format, five formats (online thirteen times smaller than the big boxes), the Sunday
trading ban (stores shut on Sundays but the trading Sundays, in no calendar; online busiest then), the majówka, All
Saints' candles and the first warm Saturday (in no calendar), a rival's city stores taken over as a step;
`screenings_us_weekly`: US checkpoint screenings per ISO week by airport, three airports (Burlington 47 times smaller
than Atlanta), Thanksgiving's and Christmas's weeks, spring breaks, Vermont's foliage and the 2026 World Cup in
Atlanta (in no calendar), a low-cost base at Orlando as a step, the CrowdStrike outage in the history;
`ferries_es_ma`: a Strait of Gibraltar ferry operator's passengers per day by departure port, six ports, the Spanish
ones on Andalusia's calendar and the Moroccan ones on Morocco's, Holy Week's trips and return, the summer crossing
of Moroccans living in Europe and levante gales closing the fast-ferry ports (in no calendar), a second ship on
Almería-Nador as a step) were written blind the same way and are held out until that round's final run.
The nineteenth round's four (`bars_prague_hourly`: a Prague bar group's card payments per hour of the night by venue
type, three types, open 18:00-03:59 local so each night crosses midnight, daylight saving's end giving one night an
eleven-hour 02:00-twice, a pub type closing at 02:00 and a club open Thursday to Saturday and on holiday eves, the
eve of 17 November and the holiday inside the evaluated fortnight, St Martin's young wine and a derby evening in no
calendar, a pub taken over as a step, a card-acquirer outage in the history; `pharmacies_at`: an Austrian pharmacy
chain's prescriptions per day by federal state, four states, Tyrol's branches opening partway through the history
(no rows, then a climb), on-duty Sundays, each state's staggered semester break, the December fill before the
prescription fee rises, Zwickeltage and the pollen season in no calendar, a competitor's patients taken over as a
step, an e-prescription outage in the history; `cinemas_dk_weekly`: a Danish cinema chain's admissions per film week
(Thursday to Wednesday) by cinema type, three types, the winter break a week apart east and west, the autumn break
and blockbusters' opening weeks in no calendar, Great Prayer Day abolished from 2024, a new multiplex as a step, a
ticket-shop outage in the history; `microloans_pk_bd_monthly`: a microfinance lender's disbursements per month by
region, four regions, two in Pakistan on its calendar and two in Bangladesh on their own, a July-June fiscal year's
quarter and year ends, each country's working week and Eid run-ups, crop-loan seasons in no calendar, the 2022
floods and Bangladesh's July 2024 blackout in the history, a credit line as a step) were written blind the same way
and are held out until that round's final run.
The twentieth round's four (`lifts_graubuenden_hourly`: a Graubünden ski resort's lift gate passages per hour by
sector, three sectors, lifts running 08:30-16:30 only, daylight saving's start and Easter inside the evaluated
fortnight (Easter Monday in the canton's calendar, the lowlands' Good Friday in none), powder days and a foehn gale
holding the glacier sector at zero from 11:00 (in no calendar), a new glacier gondola as a step, the gates' server
failure in the history; `moves_tw`: a Taiwanese moving company's jobs per day by branch, five branches (Hualien thirty
times smaller than Taipei, a few jobs a day), leases ending with the month, the Lunar New Year's rush and break,
Ghost Month and the days before it (in no calendar), Taipei's Sundays changing from a standby crew to full crews
(accepted as a shift), a dispatch-app outage in the history; `lotto_be_weekly`: the Belgian lottery's draw-game
sales per draw week (Sunday to Saturday, dated on Saturday's draw) by channel, two channels, EuroMillions' jackpot
rollovers (in no calendar) lifting sales, an app's in-app play as a step, a terminal-network outage in the history;
`activations_ro_hu_monthly`: a mobile operator's SIM activations per commission month (the 21st to the 20th) by
region, four regions, two in Romania on its calendar and two in Hungary on their own (Orthodox and Western Easter,
some years in different months), Christmas gifts, a phone launch, Lake Balaton's tourist SIMs (in no calendar), a
retail chain's stores as a step, a platform migration in the history) were written blind the same way and are held
out until that round's final run.
The twenty-first round's four (`tolls_hr_hourly`: Croatia's motorway toll transactions per hour by motorway, four
motorways (the A11 to Sisak twenty-odd times smaller than the A1), every hour of the day, Whitsun's German and
Austrian tourists driving south and back (in no Croatian calendar), Statehood Day on a Saturday and Corpus Christi
with its bridge Friday inside the evaluated fortnight, the A11's new section as a step, the toll server's failure
in the history; `inspections_sk`: a Slovak vehicle-inspection company's inspections per open day by station, five
stations, the largest (Bratislava) closed on Saturdays when the branches open, Slovakia's holidays (the
consolidation's cut holidays among them), certificates expiring with the month, a spring and a summer in no calendar,
a station's catchment ramping up over fourteen months, a truck lane as a step, the national register down for a
whole week in the history; `coupons_us_weekly`: a Gulf Coast grocer's digital-coupon redemptions per ad week
(Wednesday to Tuesday, keyed on the Wednesday) by region, three regions, Thanksgiving's run-up split across two ad
weeks, SNAP issuance days, the Super Bowl and hurricanes in no calendar, auto-clipped coupons as a step, a lost
Saturday in the history; `lockers_lt_lv_ee`: a Baltic parcel-locker network's parcels placed per day by area, six
areas, Lithuania's on its calendar and Latvia's and Estonia's on their own (Latvia's weekend holidays observed on
the Monday, its bridge days worked on a Saturday), Singles' Day's parcels from Asia, the Christmas peak and a
snowstorm in no calendar, a supermarket chain's lockers as a step, a sorting hub's failure in the history) were
written blind the same way and are held out until that round's final run.
The twenty-second round's four (`parking_stjohns_hourly`: a St. John's parking app's sessions per local hour by
zone, four zones (Mount Pearl's lots some twenty times smaller than downtown), in Newfoundland's half-hour zone
(every point on :30 UTC), the Regatta's civic holiday configured for its Wednesday and postponed by the race
committee to the Thursday, the George Street Festival's nights and cruise ships in no calendar, coinless meters
downtown as a step, a payment gateway's failure in the history; `museums_si`: a Ljubljana museum group's visitors
per open day by museum, five museums, shut on Mondays, free on the first Sunday of every month and on Prešeren Day,
the Summer Museum Night and school groups in no calendar, the City Museum shut for seven weeks of works and reopened
with a ramp back, a tourist card as a step, a ticketing failure in the history; `milk_uy_semimonthly`: a Uruguayan
dairy co-op's milk received per half-month (the 1st-15th and the 16th-end, keyed on the first day) by basin, three
basins, halves of 13 to 16 days, holidays moving nothing, the spring flush, the 2022-23 drought and a heat wave in no
calendar, a rival's farmers as a step, a plant conflict in the history; `laundries_my`: a Malaysian laundromat
chain's cycles per day by state, six states each on its own calendar (Kelantan's Friday-Saturday weekend, Johor's
moved back to Saturday-Sunday in the history, the one-off holiday of 15 September 2025), Raya's cleaning and
exodus and the Lunar New Year's washing taboo in no calendar, a rival's Johor outlets as a step, a platform
failure in the history) were written blind the same way and are held out until that round's final run.
The twenty-third round's four (`fuel_tehran_hourly`: a Tehran fuel-card network's fills per local hour by district,
four districts (Pardis's two stations some thirty times smaller than the south), in Tehran's zone three and a half
hours ahead of UTC (every point on :30 UTC), Friday's weekend and Thursday's trips north, closures for the air
declared the evening before, the monthly quota credited on each Persian month's first day (queues from midnight, dry
cards the days before) and Shab-e Yalda in no calendar, a third price tier as a step after an eve of filling, a
cyberattack on the card system in the history; `withdrawals_rs`: a Serbian bank's ATM cash withdrawals per day by
region, five regions (Zlatibor's resort some thirty times smaller than Belgrade), Serbia's Orthodox calendar, the
payroll clients' 25th brought forward to the business day before, the New Year's cash and the slavas' run-ups in no
calendar, cash giving way to instant payments a little every day (a slope, no step), a partner bank's cards as a
step, a card switch failure in the history; `pools_is_weekly`: Reykjavík's swimming pools' admissions per week by
pool, six pools (Klébergslaug some thirty times smaller than Laugardalslaug), a new pool opened inside the history
(zero, then filling over sixteen weeks), a pool staff strike configured in the calendar and called off (its week ran
as any other), school swimming, winter breaks and storms' red warnings in no calendar, new hot tubs as a step, lost
turnstile counts in the history; `cement_kz_uz_dekadal`: a cement group's shipments per dekad (the 1st-10th, the
11th-20th and the 21st to the month's end, keyed on the first day) by plant, three plants each on its country's
calendar (Kazakhstan's and Uzbekistan's), the month's push in its last days and the harvest's claim on the
railway's wagons in no calendar, a second kiln line as a step, waybills lost in the history) were written blind the
same way and are held out until that round's final run.
The twenty-fourth round's four (`topups_tonga_hourly`: a Tongan mobile operator's prepaid top-ups per local hour by
island group, four groups ('Eua some twenty-five times smaller than Tongatapu), thirteen hours ahead of UTC beside the
date line (a local day from 11:00 UTC the day before), the Sabbath's quiet Sundays, King George Tupou I's Day inside
the evaluated fortnight, the government's fortnightly Thursday pay, December's top-ups from relatives abroad and a
cyclone's warning and passage over two island groups in no calendar, a daily data bundle as a step, a submarine
cable's fault in the history; `pos_ng`: a Nigerian fintech's agent POS transactions per day by state, ten states (Ondo
some twenty-eight times smaller than Lagos), Nigeria's holidays, salaries at the month's turn, the south-east's
Christmas homecoming and off-cycle governorship elections restricting movement in one state (in no calendar), a state's
agents signed in the history (zero, then a climb) and another's sold for good as the accepted step, an interbank
switch failure in the history; `beer_et_monthly`: an Ethiopian brewery's deliveries per month of the Ethiopian
calendar by region, three regions, thirteen months a year (twelve of thirty days and Pagume of five or six, keyed on
their first day), feasts' run-ups and closed depots, the Lenten and Advent fasts, Ramadan and the long rains in no
calendar, an excise rise as a step, an ERP migration's month in the history; `nights_fj_quarterly`: a Fijian resort
group's guest nights per quarter by island group, two groups, Easter's quarter, cyclones in no calendar, the borders'
closure of 2020-21 left in the history as incidents (unlabelled), a new resort as a step) were written blind the
same way and are held out until that round's final run.The twenty-fifth round's four (`rides_amman_hourly`: a Jordanian ride-hailing app's trips per local hour by city,
two cities (Aqaba some twenty-seven times smaller than Amman), three hours ahead of UTC all year, a Friday-Saturday
weekend, Ramadan 1447 beginning inside the evaluated fortnight (its days' and nights' hours, iftar's dead hour; the
calendar holds its Eid, not its days), a derby and a snowstorm closing Amman's roads in no calendar, licensed
captains' cars as a step, a dispatch failure in the history; `flowers_bg`: a Bulgarian online florist's bouquets per
day by delivery city, nine cities, Bulgaria's calendar (St George's Day a holiday and a name day), the great name
days, Valentine's, Women's Day (8 March, a working day), Palm Sunday before Orthodox Easter and the school year's
first day in no calendar, a delivery app's listing as a step, a payment failure in the history;
`coops_kw_hijri_monthly`: a Kuwaiti co-operative union's receipts per Hijri month (the tabular calendar's months of
29 or 30 days, keyed on their first day) by area, four areas, Kuwait's calendar, Sha'ban's stocking and Ramadan, the
Gregorian summer abroad and paydays drifting through the Hijri year, app orders counted as a step, 2020's pandemic
months in the history; `cocoa_gh_weekly`: Ghana's cocoa purchases per buying week (Friday to Thursday, keyed on the
Friday) by region, six regions, the main and light crops' season, crop years of different size, the main crop's
opening, the Christmas fortnight and floods in no calendar, a producer price rise ending the border regions'
smuggling as a step, a week's lost returns in the history) were written blind the same way and are held out until
that round's final run.
The twenty-seventh round's four (`library_ulaanbaatar_hourly`: a Mongolian university's library gate entries per local
hour by library, three libraries (a branch campus's reading room some thirty times smaller than the central library),
eight hours ahead of UTC, term hours only in the history (no night, no Sunday), then the examination session inside
the evaluated fortnight: the central and science libraries open around the clock (night hours never seen before,
Buddha's Birthday and Children's Day open), the state examination's eve and a dust storm in no calendar, a reading hall
as a step, the gates offline in the history; `stationers_ec`: an Ecuadorian bookshop and stationery chain's receipts
per day by province, twelve provinces (Galápagos some twenty-eight times smaller than Guayas), the coast's and the
highlands' school years starting in April and September with their fourteenth salaries in March and August (each
province on its region's dates, in no calendar), Carnival's beaches, the drought's blackouts, a rival's Quito stores
as a step, a till outage in the history; `stores_pg_fortnightly`: a Papua New Guinean supermarket chain's receipts per
pay fortnight (every second Thursday, keyed on it, drifting through the months) by province, five provinces, a pay
Thursday on Christmas Day paid the day before (its payday in the fortnight before), school fees, the highlands'
coffee season and the fiftieth Independence in no calendar, a Lae hypermarket as a step, Port Moresby's riots in the
history; `icecream_al_weekly`: an Albanian ice-cream maker's cases per week (Sunday to Saturday, keyed on the Sunday;
2023 holds 53) by route, six routes, two resort routes whose kiosks shut from November to March, heat waves, August's
emigrants and June storms in no calendar, a distributor's kiosks as a step, a week's lost invoices in the history)
were written blind the same way and are held out until that round's final run.
The twenty-ninth round's four (`metro_doha_hourly`: a Doha metro operator's gate entries per local hour by line, four
lines (the Lusail tram some twenty-five times smaller than the Red line), three hours ahead of UTC, a Sunday-Thursday
week with trains from 06:00 and on Fridays from 14:00 only (a closed hour holds no partition), the Arab Cup's fans
before kick-off and at full time and a downpour in no calendar, the final on National Day, a bus interchange as a
step, a signalling failure in the history; `rides_kh`: a Cambodian ride-hailing app's rides per day by city, five
cities, Khmer New Year and Pchum Ben emptying the capital into the provinces, the Water Festival's boat races held one
year and called off the next (its days off kept), Angkor's season and Chinese New Year in no calendar, a rival's exit
from one city as a step, a payment outage in the history; `maize_zm_weekly`: a Zambian miller's mealie-meal bags per
ISO week by province, ten provinces, paydays at the month's turn, the rural hunger season and harvest, a drought
year and load-shedding, each province's traditional ceremony in no calendar (one not held in the drought), a retail
contract as a step, an ERP migration's lost week in the history; `airtime_af_monthly`: an Afghan mobile operator's
airtime top-ups per solar Hijri month (keyed on its first day, 1 Hamal on 20 or 21 March, months of 31, 30 and 29 or
30 days) by region, three regions, Ramadan and the Eids drifting through the solar year, Nowruz kept but in no
calendar, the highlands' winter, a network shutdown, the takeover's months left in the history, a rival's subscribers
ported in as a step) were written blind the same way and are held out until that round's final run.
The thirtieth round's four (`mobile_data_iq_hourly`: an Iraqi mobile operator's data sessions per local hour by
governorate, four governorates (Karbala some twenty-seven times smaller than Baghdad), three hours ahead of UTC, summer
nights the busy hours, Arbaeen's mass pilgrimage to Karbala (in no calendar) filling one governorate sevenfold inside
the evaluated fortnight while the walk sets out from Najaf and the capital empties, Basra's heat days off declared the
evening before, the oil camps' staff as a step, the exam mornings' internet cuts in the history; `cashouts_tz`: a
Tanzanian mobile-money operator's agent cash-outs per day by zone, eight keys, one zone re-keyed into two inside the
history (the old key empty from that day, the new keys' sum the old one's), the national census day (a holiday in the
calendar), salaries at the month's turn, Ramadan and Eid's run-up, Christmas's journey home, cash crops and Nane Nane
in no calendar, a rival's master agent as a step, a USSD outage in the history; `supermarkets_pa_weekly`: a Panamanian
supermarket chain's till tickets per ISO week by province, eleven provinces, the quincenas and the thirteenth month
paid in thirds, Carnival at Las Tablas and the fiestas patrias, the 2023 road blockades left in the history as
incidents, a rival's stores as a step; `produce_do`: a Santo Domingo wholesale market's weighbridge tickets per market
day (Tuesday, Thursday, Saturday; a holiday market day opened the day before instead) by kind of produce, three kinds,
Holy Week's beans and roots, Christmas's imported fruit and storms in no calendar, a supermarket chain's buyers as a
step, a weighbridge failure in the history) were written blind the same way and are held out until that round's final
run.
The thirty-first round's four (`buses_kigali_hourly`: a Kigali bus network's fare-card boardings per local hour by
corridor, five corridors (the Kabuga express some twenty-two times smaller than Nyabugogo-downtown), two hours ahead of
UTC, buses 05:00-22:59 only, Umuganda's last-Saturday community work closing the roads 07:00-10:59 (four hours with no
partition, a rush after them), the car-free Sunday mornings and an arena festival's nights in no calendar, Umuganura
Day inside the evaluated fortnight, electric buses on one corridor as a step, a card-system failure in the history;
`coaches_sn`: a Senegalese booking app's intercity tickets per day by departure region, seven regions, the Grand
Magal of Touba's pilgrims in and out of Touba (the calendar's 2025 estimate a day before the day kept) and Tabaski's
journey home and back as kept, Ramadan and a rainy season whose onset moves by weeks between years in no calendar, a
Casamance coach company as a step, a payment-gateway failure in the history; `remesas_gt`: a Guatemalan remittance
payer's payouts per day by channel, four channels, the rural cooperatives' payouts landing in one weekly file (six
days at zero, then the week's rows; on the Tuesday after a Monday holiday), partitions moved from UTC to local days
inside the history, Holy Week's run-up, Mother's Day and December in no calendar, a US remitter paying into the
wallet as a step, a core-banking migration in the history; `hotels_om_weekly`: an Omani hotel group's room-nights per
week (Sunday to Saturday) by property, six properties, a desert camp at zero from May to September every year beside
properties open all year, Salalah's Khareef, Ramadan and Europe's Christmas in no calendar, the Eids' domestic
trips, a new wing as a step, a channel manager's lost bookings in the history) were written blind the same way and
were read for the thirty-second round.
The thirty-second round's four (`ferries_valletta_hourly`: Maltese ferry operators' gangway validations per local hour
by route, four routes (the Three Cities harbour ferry some eleven times smaller than the Gozo car ferry), one hour
ahead of UTC, the car ferry round the clock and the others in their service hours only, the fast ferry's berth closed
for three weeks (that route at zero, the car ferry carrying its passengers) and back inside the evaluated fortnight, a
gale's cancelled crossings and the Christmas evenings in no calendar, the Immaculate Conception and Republic Day in
it, a second boat on one route as a step, a validators' outage in the history; `agents_mw`: a Malawian mobile-money
network's agent cash-outs per day by region, six regions, the 2025 general election declared a holiday weeks before
(in no calendar), the tobacco floors' season opening weeks apart between years, the salaries' month turn and the lean
season, a bank's agents as a step, a switch failure in the history; `renewals_jm`: a Jamaican operator's prepaid
data-plan renewals per day by plan, five plans with their own weeks and trends, a price rise applied by cohort over a
fortnight (a ramp the owner accepts), payday from the 25th, Christmas's and the summer's roaming in no calendar, Ash
Wednesday in it, a top-up outage in the history; `milk_dz_weekly`: an Algerian dairy's sachet-milk crates per week
from Saturday to Friday (keyed on the Saturday) by depot, seven depots, Ramadan's lift in no calendar and the Eids'
closed shops in it, the coast's summer against the south's heat, a route taken over as a step, a drivers' strike in
the history) were written blind the same way and were read for the thirty-third round.
The thirty-third round's four (`pharmacies_tegucigalpa_hourly`: a Tegucigalpa pharmacy chain's tickets per local
hour by branch network, five networks (the bus terminal's branch some twenty-one times smaller than the
neighbourhoods'), six hours behind UTC, the malls' branches in their shop hours only, the neighbourhoods' night shift
cut four hours shorter inside the history (their night customers to the delivery app), the Morazán Weekend in the
calendar, the quincena's evenings and a football qualifier in none, a hospital branch as a step, a point-of-sale
outage in the history; `departments_cy`: a Cypriot supermarket chain's items per day by department, six departments,
the Orthodox Great Lent (weeks apart between years, in no calendar but Green Monday) moving the mix from meat and
dairy to the fasting foods, its eve, Tsiknopempti and Holy Week's lamb, the August fast and the tourists' summer,
in-store ovens as a step, a heatwave's power cuts in the history; `stores_tt`: a Trinidad and Tobago household-goods
chain's receipts per day by store, five stores, Divali's run-up (weeks apart between years on the lunisolar
calendar, in the calendar) strongest in Chaguanas, Carnival's Monday and Tuesday in no calendar, Christmas and back
to school, a store moved to a bigger site as a step, a card-network outage in the history; `billing_cr_monthly`: a
Costa Rican electricity distributor's invoice lines per billing month by region, six regions, billed in arrears with
a month's late readings corrected in the next month's lines (Holy Week's month, December, Limón's rains), a fiscal
year from October to September, Guanacaste's dry season, a cooperative's customers as a step, a failed run in the
history) were written blind the same way and were read for the thirty-fourth round.
The thirty-fourth round's four (`metro_yerevan_hourly`: a Yerevan metro's entries per local hour by group of
stations, four groups (the new extension's single station some seventeen times smaller than the centre's), four
hours ahead of UTC, no partition in the hours without trains but on New Year's night, the Armenian New Year week's
days in the calendar and out of it, feeder buses to the north as a step, the ticket gates offline in the history;
`receipts_bw`: a Botswana supermarket chain's receipts per day by store, five stores, the mines' wages every other
Friday (fortnightly, drifting through the month, in no calendar) in the mining towns, the civil service's pay on the
24th, Maun's safari season, a store moved into a mall as a step, a store's power cut in the history; `parcels_mg`: a
Malagasy courier's parcels per day by region, four regions on a six-day week, the cyclone season's road cut to the
vanilla coast for weeks whose dates move between years and the vanilla campaign opened by decree (both in no
calendar), Independence Day's run-up, a sorting hub as a step, a tracking outage in the history;
`coffee_ni_weekly`: a Nicaraguan coffee exporter's cherry deliveries per week by buying station, four stations, a
harvest whose start moves by weeks with the rains (the highlands' two weeks later) against an off-season some
seventeen times lower, Holy Week and Christmas in the calendar, a wet mill as a step, a scale's lost week in the
history) were written blind the same way and were read for the thirty-fifth round.
The thirty-fifth round's four (`kiosks_chisinau_hourly`: a Chisinau payment-kiosk network's payments per local hour
by sector, four sectors (the suburb's kiosks some twenty times fewer than the centre's), the clocks moving forward
in the history, the Orthodox Holy Week's days in no calendar and Easter in it, the Day of Rejoicing (Memorial Easter)
a week later in the calendar and its eve in none, a new market's kiosks as a step, the processing host down in the
history; `crossings_bh`: the King Fahd Causeway's crossings into Bahrain per day by lane group, five groups on a
Friday-Saturday weekend with their own weeks, the Eids in the calendar and Ramadan, Saudi Arabia's own days off and
the Grand Prix (weeks apart between years) in none, the trucks' one-stop customs as a step, a customs outage that
stopped the trucks for three days and its backlog worked off over a week in the history; `forecourts_na`: a Namibian
fuel retailer's card transactions per day by town, six towns, the southern summer's coast season spanning the new
year (the coast up, the capital down), Easter's exodus and the eves of pump-price rises in no calendar, a harbour
station as a step, the card switch down in the history; `coop_py_monthly`: a Paraguayan farmers' cooperative's invoice
lines per month by business line, three lines, a fiscal year from May to April, the soy planting's and second crop's
seasons, the December thirteenth month and the vaccination campaigns in no calendar, working days per month, a
second store as a step, an ERP migration's half-keyed month in the history) were written blind the same way and were
read for the thirty-sixth round.
The thirty-sixth round's four (`shops_havana_hourly`: a Havana private grocery chain's card and QR receipts per local
hour by municipality, four municipalities (Habana del Este's shop some eighteen times smaller than Plaza's), the
clocks going back at 01:00 to midnight inside the evaluated fortnight (local midnight twice), the utility's rotating
blackout blocks (one municipality dark four hours a day, Plaza's circuit never) and a tropical storm and its eve in
no calendar, a new supermarket as a step, the payment gateway down in the history; `deliveries_bn`: a Brunei delivery
app's orders per day by district, four districts on a split Friday-and-Sunday weekend, Ramadan in no calendar but its
first day, double-date sales, a district launched from zero inside the evaluated window as the step, a broken
checkout in the history, 1,280 days with 850 of history; `sweets_az`: a Baku confectionery chain's orders per day
by city, five cities, Novruz's four Tuesdays in no calendar and its days in it (Eid al-Fitr on Novruz in 2026), the
Eids' eves and New Year's cakes, a history that begins with an order-system migration (ten weeks counted otherwise,
then four weeks with no partition), a delivery marketplace as a step, an oven down in the history, 1,272 partitions
with 826 of history; `hardware_gy_monthly`: a Guyanese building-materials distributor's invoice lines per month by
branch, five branches, a fiscal year from September to August, the dry and rainy seasons and Diwali's run-up (split
between October and November as the date moves) in no calendar, an oil boom's +1.5% a month, a second yard as a
step, an invoicing cutover's lost week in the history) were written blind the same way and were read for the
thirty-seventh round.
The thirty-seventh round's four (`boda_kampala_hourly`: a Kampala boda-boda app's rides per local hour by division,
four divisions (Kawempe's some seventeen times fewer than Central's), Independence Day in the calendar with its
evening's celebrations above the day, the national team's home qualifier and the rides home after it in no calendar,
Sunday church mornings, a stage partnership as a step, the app down in the history; `drinks_sv`: a Salvadoran
beverage distributor's cases per day by route, five routes each on its own weekdays (zero on the others), no Sunday
partition, a holiday's delivery moved to the route's next working day, Holy Week's run-up and the Christmas orders in
no calendar, a supermarket chain as a step, a half-lost export in the history; `parcels_cm`: a Cameroonian courier's
parcels per day by regional hub, six hubs, the anglophone hubs' ghost-town Mondays and the lockdowns around national
days, a truckers' strike and its backlog and the Christmas parcels in no calendar, the Eids estimated by the package, a
sorting centre as a step, the scanners down in the history; `furniture_ba_weekly`: a Bosnian furniture maker's pieces
per ISO week by plant, three plants, both Christmases and Easters and the Eids, the collective annual leave's two weeks
and the weeks around it in no calendar, an ISO week 53 evaluated, a second shift as a step, a saw down in the history)
were written blind the same way and were read for the thirty-eighth round.
The thirty-eighth round's four (`wallet_yangon_hourly`: a Yangon mobile wallet's transfers per local hour by region,
five regions (Myitkyina's some twenty times fewer than Yangon's), six and a half hours ahead of UTC (every local hour
starts at half past a UTC hour), Thingyan's nine days in the calendar (the water festival's empty afternoons, New
Year's Day's merit-making morning, the extended days), the money sent home in the three evenings before it in none, a
bank's accounts linked in Mandalay as a step, the wallet's core down in the history; `cards_me`: a Montenegrin bank's
card payments per day by municipality, six municipalities, the coast's summer against Žabljak's two seasons (skiing
and a second peak of hiking) and the capital emptied in August, Kotor's cruise calls on Tuesdays and Saturdays and
the Orthodox Christmas in no calendar (the package's ME names the civil days alone), a supermarket chain's terminals
as a step, the card switch down in the history; `cashins_ci`: an Ivorian mobile-money operator's cash-ins per day by
region, seven regions, a presidential election declared a day off a week before (a date the owner adds to the
calendar) with its days before and after in none, Tabaski's run-up strongest in the north, a transfer tax announced a
week ahead (the rush before it, two weeks held back after), the salaries' month turn, a supermarket chain as a step,
the USSD gateway down in the history; `groceries_ve_semimonthly`: a Venezuelan supermarket chain's receipts per
quincena by store, four stores, half-months of 13 to 16 days with their paydays, Carnival and Holy Week in the
calendar (the stores shut on Good Friday, Mérida's tourists up), the aguinaldos' December and back to school in
none, an enlarged store as a step, the card network down in the history) were written blind the same way and were
read for the thirty-ninth round.
The thirty-ninth round's four (`deliveries_beirut_hourly`: a Beirut food-delivery app's orders per local hour by
district, four districts (Jounieh's some sixteen times fewer than Achrafieh's), daylight saving starting at local
midnight inside the evaluated fortnight (a 23-hour day with no 00:00), the Catholic and Orthodox Good Fridays a week
apart in the calendar (the east's districts fasting until the afternoon, the west unmoved) and the Catholic Easter
Sunday in none, Ramadan's iftar and suhoor hours in most of the history's weeks (in no calendar, by each district's
share of fasting households) and none in the evaluated window, a burger chain as a step, the app down in the history;
`remittances_tj`: a Tajik bank's inbound remittance payouts per day by region, five regions, the migrants' year (the
autumn's money, December's carried home in cash), Nowruz and the Eids in the calendar (Eid al-Fitr on Nowruz's eve in
2026), Ramadan and the Eids' run-ups in none, one region's agents gone for good three months before the evaluated
window (zero every day since), a Russian bank's card transfers as a step, the processing centre down in the history,
1,338 days with 882 of history; `appliances_sr`: a Surinamese appliance retailer's receipts per day by store, six
stores, the many calendars of Suriname's holidays (Holi and Diwali strongest in the Hindu districts, the Chinese New
Year, the Eids, Keti Koti), the civil servants' pay on the 24th rolled back from a weekend or a holiday, Diwali's
run-up moving by weeks between years and the year-end bonus in no calendar, a national day of mourning declared two
days ahead (the owner adds it to the calendar), a store moved into a mall as a step, the card network down in the
history, 1,369 days with 882 of history; `water_bf_dekadal`: a Burkinabè bottled-water company's packs per dekad by
depot, three depots, the hot season and the rains, Ramadan's iftar water, two festivals in the capital that
alternate years (FESPACO in odd years, SIAO in even ones) in no calendar, a supermarket chain's contract as a step,
lost delivery notes in the history) were written blind the same way and were read for the fortieth round.
The fortieth round's four (`scooters_bishkek_hourly`: a Bishkek e-scooter rental app's rides per local hour by
district, five districts (the Alamedin suburbs' some twenty times fewer than Pervomaisky's), six hours ahead of UTC,
a heat wave of four days inside the evaluated fortnight in no calendar (its afternoons emptied, its late evenings
above an ordinary one's), Independence Day in the calendar with its fireworks' evening above the day, weekend
mornings late, a university campus's scooter zone as a step, the app down in the history; `payments_zw`: a
Zimbabwean mobile-money operator's merchant payments per day by region, six regions, one region opened from zero in
the history and grown over half a year, two regions merged eight months before the evaluated window (one zero every
day since, the other holding both), the salaries' month turn, the Christmas shopping in no calendar, a supermarket
chain's tills as a step, the payment switch down in the history, 1,290 days with 854 of history; `bakery_bb`: a
Barbadian bakery's deliveries per day by channel, four channels, the school terms in no calendar (the tuck shops at
zero in half-term weeks and the school holidays, stocked on a term's first day; the Lent term's end and the summer
half-term moving with Easter and Whit Monday), the tourist season's hotels, Crop Over's last week before the
calendar's Kadooment Day, a resort's contract as a step, a broken-down van in the history, 1,290 days with 854 of
history; `materials_la_quarterly`: a Lao building-materials wholesaler's invoice lines per quarter by province,
three provinces, the government's budget year moved from October-September to the calendar year years before the
evaluated window (its year-end push a quarter later since), the rains' quarters and Lao New Year's, a second depot as
a step, an import's lost invoices in the history, 44 quarters with 32 of history) were written blind the same way
and were read for the forty-first round.
The forty-first round's four (`taxis_skopje_hourly`: a Skopje taxi-hailing app's rides per local hour by
municipality, five municipalities (Saraj's some eighteen times fewer than Centar's), daylight saving ending inside
the evaluated window (a 25-hour local day with 02:00 twice), the Day of the Macedonian Revolutionary Struggle in the
calendar on a Friday, the nights out before weekends and days off, a city bus strike of four weekdays in no calendar
(its commute hours nearly doubled, its other daytime hours up, its nights unmoved), a mall's taxi rank as a step, the
app down in the history; `groceries_ru`: a Moscow grocery-delivery app's orders per day by delivery zone, five zones,
the dacha season in no calendar (the city's weekends emptied from May to September while the summer-house villages'
zone, seventeen times smaller, triples at the weekend), the May holidays' long weekends, Russia's days off moved by
decree in the calendar, the New Year table's shopping, a dark store as a step, the couriers' app down in the history,
1,290 days with 854 of history; `supermarkets_ao`: an Angolan supermarket chain's receipts per day by store, six
stores, the calendar's bridge days ("Day off for ...", a day off with the shops open, above an ordinary day) beside
its holidays (below one), the month's first Saturday's loyalty "big Saturday" and the festas in no calendar, an
enlarged store as a step, a store's power cut in the history, 1,290 days with 854 of history;
`entries_bs_quarterly`: a Bahamian customs broker's import entries per quarter by port, four ports, a government
budget year ending in June (its last quarter pushed), the hurricane season's quarter (the out islands lowest) and the
Christmas stock's, a duty rise announced in a budget for the next January (the quarter before it pushed, the
quarter after it held back, both inside the evaluated window), a shipyard's imports as a step, a hurricane's shut
ports in the history, 44 quarters with 32 of history) were written blind the same way and are held out until that
round's final run.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import random
import re
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb

from dw_assets.checks.volume import evaluate_volume
from dw_assets.config import HolidaysConfig, VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.volume_calendar import HolidayCalendar, features_of, local_hours
from dw_assets.core.volume_model import (
    ModelParams,
    Point,
    forecast,
    judge,
    reads_total_as_groups_sum,
    rows_on_few_weekdays,
    total_of_groups,
    with_retired_groups,
)

DROPS = (0.10, 0.20, 0.35, 0.50, 0.80)
FAULTS = [f"drop_{int(d * 100)}" for d in DROPS] + ["empty", "duplicated", "missing_group", "late"]
GROUPS = 5
# clean partitions whose flag is an expected alarm, reported but not counted as false alarms: the first
# partition of a legitimate level shift is, on that day, the same observation as a fault of that size
# (a -30% step and a 30% drop); only later points tell them apart, so a check that catches 20-35%
# drops must flag it, and the owner accepts it as a shift (`dw checks accept ... --shift`). So is the
# first flagged partition after a weekly pattern changed for good (a weekend moved): the owner accepts
# it as a shape change (`dw checks accept ... --shape`); every later flag counts
EXPECTED = {"shift_first", "shape_first"}
SHAPE_WINDOW = timedelta(days=56)  # how long after a shape change its first flag is the owner's to accept


@dataclass
class Estate:
    name: str
    grain: str                       # "day" or "hour"
    series: list[tuple[datetime, list[float]]]  # per partition: the value of each group
    evaluate_from: int               # index of the first evaluated partition
    calendar: HolidayCalendar
    categories: dict[datetime, str] = field(default_factory=dict)  # clean partition -> period_end/holiday/after_shift
    shift_at: list[datetime] = field(default_factory=list)
    # where the generator changed the weekly pattern for good (a weekday's share launched, cut, moved)
    shape_at: list[datetime] = field(default_factory=list)
    # the check's `timezone` (an hourly series' points are UTC hours, as the check aggregates them;
    # its hours, weekdays and holidays are the owner's local ones)
    timezone: str = "UTC"
    # unlabelled past incidents (partial loads, outages...) left in the series: in the history the
    # check reads, never evaluated (they are not clean partitions)
    incidents: set[datetime] = field(default_factory=set)
    # a group's own calendar, by group index (None: the estate's), as the owner configures
    # `group_holidays` for a market in another country; the total keeps `calendar`
    group_calendars: list[HolidayCalendar | None] = field(default_factory=list)

    def calendar_of(self, group: int) -> HolidayCalendar:
        own = self.group_calendars[group] if group < len(self.group_calendars) else None
        return own or self.calendar


def _utc_hour(local: datetime, tz: ZoneInfo) -> datetime:
    """A wall-clock time in `tz` as the naive UTC instant a warehouse keys an hourly partition on."""
    return local.replace(tzinfo=tz).astimezone(ZoneInfo("UTC")).replace(tzinfo=None)


def _local_hour(at: datetime, tz: ZoneInfo) -> datetime:
    """A naive UTC instant as the naive wall-clock time in `tz` (the hour, weekday and day its owner lives)."""
    return at.replace(tzinfo=ZoneInfo("UTC")).astimezone(tz).replace(tzinfo=None)


def _mark_after_shift(cats: dict[datetime, str], shifts: list[datetime], step: timedelta, count: int,
                      first: int = 0) -> None:
    """The partitions `first` .. `count` - 1 steps from each shift on are its weeks after ("after_shift",
    counted on their own), where no other category names them."""
    for s in shifts:
        for k in range(first, count):
            cats.setdefault(s + k * step, "after_shift")


def _shares(rng: random.Random) -> list[float]:
    raw = [rng.uniform(0.5, 2.0) for _ in range(GROUPS)]
    return [r / sum(raw) for r in raw]


def _noisy(rng: random.Random, mean: float, sigma: float) -> float:
    return max(0.0, round(mean * math.exp(rng.gauss(0, sigma))))


def _weekly_sums(rng: random.Random, start: date, weeks: int, groups: list[str], size: dict[str, float],
                 daily: Callable[[date, str], float], *, growth: float, noise: float,
                 step: tuple[str, date, float], loss: tuple[str, date, float]) -> list[tuple[datetime, list[float]]]:
    """A weekly series keyed on its weeks' first day (`start`, then every seven days): each group's week the sum of
    its seven days (`daily`, relative to an ordinary day) times its `size` and a yearly `growth`, times an accepted
    `step` (group, first week, factor) from its week on and a `loss` (group, week, factor) on its week alone (an
    unlabelled incident), with `noise` per group and week drawn in the groups' order."""
    series = []
    for k in range(weeks):
        first = start + timedelta(weeks=k)
        days = [first + timedelta(days=j) for j in range(7)]
        values = []
        for g in groups:
            f = sum(daily(d, g) for d in days) * growth ** (k / 52.18)
            f *= step[2] if g == step[0] and first >= step[1] else 1.0
            f *= loss[2] if g == loss[0] and first == loss[1] else 1.0
            values.append(_noisy(rng, size[g] * f, noise))
        series.append((datetime(first.year, first.month, first.day), values))
    return series


def _month_ends(first: date, count: int) -> list[date]:
    out, y, m = [], first.year, first.month
    for _ in range(count):
        nxt = date(y + (m == 12), m % 12 + 1, 1)
        out.append(nxt - timedelta(days=1))
        y, m = nxt.year, nxt.month
    return out


def gl_month_end(seed: int, noise: float = 0.03) -> Estate:
    """A GL export on month-ends: +1-3%/month, quarter-ends 30-45% and year-ends 45-60% larger."""
    rng = random.Random(seed)
    growth, shares = rng.uniform(0.01, 0.03), _shares(rng)
    q_lift, y_lift = rng.uniform(1.30, 1.45), rng.uniform(1.45, 1.60)
    days = _month_ends(date(2022, 1, 1), 48)
    series, cats = [], {}
    for i, d in enumerate(days):
        lift = y_lift if d.month == 12 else q_lift if d.month % 3 == 0 else 1.0
        mean = 100_000 * (1 + growth) ** i * lift
        series.append((datetime(d.year, d.month, d.day), [_noisy(rng, mean * s, noise) for s in shares]))
        if d.month % 3 == 0:
            cats[series[-1][0]] = "period_end"
    return Estate(f"gl_month_end{'_noisy' if noise > 0.03 else ''}", "day", series, 30, HolidayCalendar(), cats)


def _black_fridays(years: range) -> dict[date, str]:
    out = {}
    for y in years:
        nov1 = date(y, 11, 1)
        thanksgiving = nov1 + timedelta(days=(3 - nov1.weekday()) % 7 + 21)
        out[thanksgiving + timedelta(days=1)] = "black_friday"
    return out


def _daily(name: str, seed: int, country: str, weekday_shape: list[float], holiday_factor: Callable[[str], float],
           extra: dict[date, str], extra_factor: dict[str, float], shift: tuple[int, float] | None,
           noise: float, trend_per_day: float, payroll: float = 1.0) -> Estate:
    rng = random.Random(seed)
    cal = HolidayCalendar(country=country, dates=extra)
    shares = _shares(rng)
    start, n = date(2024, 1, 1), 760
    series, cats, shifts = [], {}, []
    level = 20_000.0
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        if shift and i == shift[0]:
            level *= shift[1]
            shifts.append(at)
        mean = level * math.exp(trend_per_day * i) * weekday_shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= extra_factor.get(hol, holiday_factor(hol))
            cats[at] = "holiday"
        if features_of(at, "day", cal)["business_day"] == 1:
            mean *= payroll
        series.append((at, [_noisy(rng, mean * s, noise) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(days=1), 28)
    return Estate(name, "day", series, 400, cal, cats, shifts)


def orders_us(seed: int) -> Estate:
    """Orders: weekday shape, US holidays (Christmas x0.3), Black Friday x3 (config dates), +40% step."""
    return _daily("orders_us", seed, "US", [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6],
                  lambda h: 0.3 if "Christmas" in h else 0.6 if "Thanksgiving" in h else 0.85,
                  _black_fridays(range(2024, 2027)), {"black_friday": 3.0}, (560, 1.4), 0.04, 0.0006)


def orders_de(seed: int) -> Estate:
    """Held out: German holidays, a Sunday-closed shape, a payroll day, a -30% step, -0.02%/day."""
    return _daily("orders_de", seed, "DE", [1.1, 1.0, 1.0, 1.0, 1.3, 1.4, 0.15],
                  lambda h: 0.25 if "Weihnacht" in h or "Christmas" in h else 0.5, {}, {}, (610, 0.7), 0.03,
                  -0.0002, payroll=1.35)


def _hourly(name: str, seed: int, country: str, peak_hour: int, noise: float, weekend: float,
            shift: tuple[int, float] | None) -> Estate:
    rng = random.Random(seed)
    cal = HolidayCalendar(country=country)
    shares = _shares(rng)
    start, n = datetime(2025, 11, 1), 24 * 75
    series, cats, shifts = [], {}, []
    level = 3_000.0
    for i in range(n):
        at = start + timedelta(hours=i)
        if shift and i == shift[0]:
            level *= shift[1]
            shifts.append(at)
        cycle = 1 + 0.8 * math.cos((at.hour - peak_hour) / 24 * 2 * math.pi)
        mean = level * cycle * (weekend if at.weekday() >= 5 else 1.0) * (1 + 0.001) ** (i / 24)
        if cal.name(at.date()):
            mean *= 0.6
            cats[at] = "holiday"
        series.append((at, [_noisy(rng, mean * s, noise) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(hours=1), 24 * 7)
    return Estate(name, "hour", series, n - 24 * 14, cal, cats, shifts)


def events_hourly(seed: int) -> Estate:
    """Events per hour: a daily cycle peaking at 14:00, lighter weekends, UK holidays."""
    return _hourly("events_hourly", seed, "GB", 14, 0.04, 0.7, (24 * 68, 1.3))


def sessions_jp_hourly(seed: int) -> Estate:
    """Held out: a night-peaking cycle, heavier weekends, Japanese holidays, noisier."""
    return _hourly("sessions_jp_hourly", seed, "JP", 21, 0.05, 1.25, None)


def _eid_days(years: range) -> list[date]:
    cal = HolidayCalendar(country="ID")
    return [d for y in years for d in sorted(_holiday_days(cal, y)) if cal.name(d) == "Eid al-Fitr"]


def _holiday_days(cal: HolidayCalendar, year: int) -> list[date]:
    """The calendar's named days of `year`, in order (a new list: callers may keep or change it)."""
    return list(_named_days(cal.country, cal.subdiv, tuple(sorted(cal.dates.items())), year))


@functools.cache
def _named_days(country: str | None, subdiv: str | None, dates: tuple[tuple[date, str], ...],
                year: int) -> tuple[date, ...]:
    """`_holiday_days` once per calendar content and year: a generator that asks for the year's Eid per
    generated day (parcels_ae: 761 days x 7 emirates) scanned the 365 days each time, most of the
    tests' and the bench's generation time. `HolidayCalendar.name` reads only the country, the
    subdivision and the configured dates, so those and the year are the whole key (the same days as
    the scan, byte for byte)."""
    cal = HolidayCalendar(country=country, subdiv=subdiv, dates=dict(dates))
    day, out = date(year, 1, 1), []
    while day.year == year:
        if cal.name(day):
            out.append(day)
        day += timedelta(days=1)
    return tuple(out)


def deliveries_id(seed: int) -> Estate:
    """New, held out: Indonesian deliveries. Ramadan (the 30 days before Eid al-Fitr, 11 days
    earlier each year, in no calendar) x0.85; Eid al-Fitr x0.25 and the homecoming days around it
    (two before, three after, not holidays in any calendar) x0.55; lighter Fridays; 7% noise; a
    declining trend (-0.03%/day)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ID")
    shares = _shares(rng)
    eids = _eid_days(range(2024, 2027))
    ramadan = {e - timedelta(days=k) for e in eids for k in range(1, 31)}
    homecoming = {e + timedelta(days=k) for e in eids for k in (-2, -1, 2, 3, 4)}
    shape = [1.0, 1.0, 1.05, 1.05, 0.8, 0.95, 0.9]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 30_000 * math.exp(-0.0003 * i) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.25 if hol.startswith("Eid al-Fitr") else 0.6
            cats[at] = "holiday"
        elif d in homecoming:
            mean *= 0.55
            cats[at] = "holiday"
        if d in ramadan:
            mean *= 0.85
            cats.setdefault(at, "ramadan")
        series.append((at, [_noisy(rng, mean * s, 0.07) for s in shares]))
    return Estate("deliveries_id", "day", series, 400, cal, cats)


def shipments_jp(seed: int) -> Estate:
    """New, held out: Japanese B2B shipments on business days only (no partition on weekends or
    holidays, so Golden Week is a gap), the first business day after a closure of three days or
    more carries the backlog (x1.6), Mondays heavier, 5% noise, -0.05%/day and a -25% step."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="JP")
    shares = _shares(rng)
    shape = [1.2, 1.0, 1.0, 0.95, 0.9]
    start, n = date(2024, 1, 1), 1100
    series, cats, shifts = [], {}, []
    level, closed = 8_000.0, 0
    for i in range(n):
        d = start + timedelta(days=i)
        if d.weekday() >= 5 or cal.name(d):
            closed += 1
            continue
        at = datetime(d.year, d.month, d.day)
        if len(series) == 560:
            level *= 0.75
            shifts.append(at)
        mean = level * math.exp(-0.0005 * i) * shape[d.weekday()]
        if closed >= 3:
            mean *= 1.6
            cats[at] = "holiday"
        closed = 0
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    for s in shifts:
        k = [a for a, _ in series].index(s)
        for a, _ in series[k:k + 20]:
            cats.setdefault(a, "after_shift")
    return Estate("shipments_jp", "day", series, 400, cal, cats, shifts)


def signups_weekly(seed: int) -> Estate:
    """New, held out: weekly signups (a partition per Monday-starting week), heavy noise (10%), a
    declining trend (-0.4%/week), the weeks holding Christmas x0.55, New Year's Day x0.8 and
    Thanksgiving x0.85 (US holidays)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    shares = _shares(rng)
    start, n = date(2022, 1, 3), 210
    series, cats = [], {}
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        names = {cal.name(monday + timedelta(days=k)) for k in range(7)} - {""}
        mean = 50_000 * math.exp(-0.004 * i)
        for name in names:
            mean *= 0.55 if "Christmas" in name else 0.8 if "New Year" in name else 0.85 if "Thanksgiving" in name else 1
        if names:
            cats[at] = "holiday"
        series.append((at, [_noisy(rng, mean * s, 0.10) for s in shares]))
    return Estate("signups_weekly", "day", series, 106, cal, cats)


def _easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous algorithm): carnival is 48 and 47 days before it."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month = (h + ell - 7 * m + 114) // 31
    return date(year, month, (h + ell - 7 * m + 114) % 31 + 1)


def shipments_cn(seed: int) -> Estate:
    """New, held out (issue 16, second round): Chinese B2B shipments on working days only, by the
    Chinese calendar of the `holidays` package: Spring Festival a week-long closure, Golden Week,
    bridge days off whose names change every year ("Day off (substituted from ...)") and the
    weekend days worked in exchange, which do get a partition (x0.9). The three working days before
    Spring Festival x1.3 (a rush), the first five working days after it x0.7 (a slow return), the
    first working day after any closure of three days or more x1.4; Fridays lighter; 6% noise;
    +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CN")
    shares = _shares(rng)
    shape = [1.1, 1.0, 1.0, 1.0, 0.85, 0.9, 0.9]
    start, n = date(2024, 1, 1), 1100
    worked_weekends = set()
    for y in range(2024, 2028):
        for day in _holiday_days(cal, y):
            found = re.search(r"substituted from (\d\d)/(\d\d)/(\d{4})", cal.name(day))
            if found:
                worked_weekends.add(date(int(found[3]), int(found[1]), int(found[2])))
    open_days = [start + timedelta(days=i) for i in range(n)]
    open_days = [d for d in open_days if (d.weekday() < 5 or d in worked_weekends) and not cal.name(d)]
    festival = [d for y in range(2024, 2028) for d in _holiday_days(cal, y) if "Spring Festival" in cal.name(d)]
    rush, slow = set(), set()
    for y in range(2024, 2028):
        first = min((d for d in festival if d.year == y), default=None)
        if first is None or first > open_days[-1]:
            continue  # (a festival after the series' end has no rush in it: 2027's fell on its last days)
        before = [d for d in open_days if d < first][-3:]
        after = [d for d in open_days if d > first][:5]
        rush.update(before)
        slow.update(after)
    series, cats, previous = [], {}, None
    for d in open_days:
        at = datetime(d.year, d.month, d.day)
        mean = 6_000 * math.exp(0.0003 * (d - start).days) * shape[d.weekday()]
        closed = (d - previous).days - 1 if previous else 0
        previous = d
        if d in rush:
            mean *= 1.3
        if d in slow:
            mean *= 0.7
        if closed >= 3:
            mean *= 1.4
        if d in rush or d in slow or closed >= 3 or d in worked_weekends:
            cats[at] = "holiday"
        series.append((at, [_noisy(rng, mean * s, 0.06) for s in shares]))
    return Estate("shipments_cn", "day", series, 400, cal, cats)


def orders_br(seed: int) -> Estate:
    """New, held out (issue 16, second round): Brazilian daily orders. Carnival Monday and Tuesday
    x0.4 (listed in config as "Carnaval", as a Brazilian owner would), Ash Wednesday x0.7 and the
    Saturday before carnival x0.85 (in no calendar), public holidays x0.5, Christmas x0.3; a weekday
    shape that changes for good on day 520 (weekend delivery launched: Saturday 0.8 -> 1.05, Sunday
    0.55 -> 0.9, Tuesday and Wednesday a little lighter); 5% noise; +0.02%/day."""
    rng = random.Random(seed)
    carnival = {_easter(y) - timedelta(days=k): "Carnaval" for y in range(2024, 2027) for k in (48, 47)}
    cal = HolidayCalendar(country="BR", dates=carnival)
    ash = {_easter(y) - timedelta(days=46) for y in range(2024, 2027)}
    saturday = {_easter(y) - timedelta(days=50) for y in range(2024, 2027)}
    shares = _shares(rng)
    before, after = [1.0, 1.0, 1.0, 1.05, 1.15, 0.8, 0.55], [1.0, 0.95, 0.95, 1.0, 1.1, 1.05, 0.9]
    start, n = date(2024, 1, 1), 760
    series, cats, shapes = [], {}, []
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        if i == 520:
            shapes.append(at)
        mean = 25_000 * math.exp(0.0002 * i) * (before if i < 520 else after)[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.4 if hol == "Carnaval" else 0.3 if "Christmas" in hol else 0.5
            cats[at] = "holiday"
        elif d in ash or d in saturday:
            mean *= 0.7 if d in ash else 0.85
            cats[at] = "holiday"
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    for s in shapes:
        for k in range(56):
            cats.setdefault(s + timedelta(days=k), "after_shape_change")
    return Estate("orders_br", "day", series, 400, cal, cats, shape_at=shapes)


def events_dst_hourly(seed: int) -> Estate:
    """New, held out (issue 16, second round): hourly events partitioned in UTC while the users
    live in New York: the daily cycle (peak 20:00 local) moves one UTC hour when daylight saving
    time ends on 2026-11-01, inside the evaluated fortnight; weekends x1.1, US holidays x0.8,
    4% noise, +0.05%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    shares = _shares(rng)
    tz = ZoneInfo("America/New_York")
    start, n = datetime(2026, 9, 16), 24 * 60
    series, cats = [], {}
    change = datetime(2026, 11, 1, 6)  # 02:00 EDT = 06:00 UTC
    for i in range(n):
        at = start + timedelta(hours=i)
        local = at.replace(tzinfo=ZoneInfo("UTC")).astimezone(tz)
        cycle = 1 + 0.7 * math.cos((local.hour - 20) / 24 * 2 * math.pi)
        mean = 2_500 * cycle * (1.1 if local.weekday() >= 5 else 1.0) * math.exp(0.0005 * i / 24)
        if cal.name(local.date()):
            mean *= 0.8
            cats[at] = "holiday"
        if change <= at < change + timedelta(days=7):
            cats.setdefault(at, "after_dst")
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    # the check's `timezone` is the users' (the owner knows where they live; the partitions stay UTC hours)
    return Estate("events_dst_hourly", "hour", series, n - 24 * 14, cal, cats, timezone="America/New_York")


def _local_hourly(name: str, seed: int, zone: str, country: str, subdiv: str | None, start: datetime, days: int,
                  mean_at: Callable[[datetime, bool], float], noise: float,
                  shift: tuple[datetime, float] | None, dst_change: datetime) -> Estate:
    """An hourly estate whose users live in `zone`: points at UTC hours (as a warehouse stores
    instants), the shape `mean_at(local time, is a holiday)` in local time, so the daily cycle moves
    one UTC hour at each daylight-saving change; the last fortnight evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country=country, subdiv=subdiv)
    shares = _shares(rng)
    tz = ZoneInfo(zone)
    n = 24 * days
    series, cats, shifts = [], {}, []
    level = 1.0
    for i in range(n):
        at = start + timedelta(hours=i)
        if shift and at == shift[0]:
            level *= shift[1]
            shifts.append(at)
        local = _local_hour(at, tz)
        holiday = bool(cal.name(local.date()))
        mean = level * mean_at(local, holiday) * math.exp(0.001 * i / 24)
        if holiday:
            cats[at] = "holiday"
        if dst_change <= at < dst_change + timedelta(days=7):
            cats.setdefault(at, "after_dst")
        series.append((at, [_noisy(rng, mean * s, noise) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(hours=1), 24 * 7)
    return Estate(name, "hour", series, n - 24 * 14, cal, cats, shifts, timezone=zone)


def checkouts_sydney_hourly(seed: int) -> Estate:
    """New, held out (issue 16, time zones): checkouts per hour for users in Sydney, points at UTC
    hours. Southern-hemisphere daylight saving starts on 2026-10-04 (a 23-hour local day) inside
    the evaluated fortnight, followed by Labour Day (NSW) x0.7 the next day; a morning peak at
    10:00, a lunch dip at 12:00-13:00 (x0.75), an evening peak at 19:00, quiet nights; Saturdays
    x1.2, Sundays x0.9; 5% noise."""
    def mean_at(local: datetime, holiday: bool) -> float:
        h = local.hour + 0.5
        shape = 0.15 + math.exp(-((h - 10.5) / 2.2) ** 2) + 1.2 * math.exp(-((h - 19.5) / 2.0) ** 2)
        if local.hour in (12, 13):
            shape *= 0.75
        day = 1.2 if local.weekday() == 5 else 0.9 if local.weekday() == 6 else 1.0
        return 4_000 * shape * day * (0.7 if holiday else 1.0)
    return _local_hourly("checkouts_sydney_hourly", seed, "Australia/Sydney", "AU", "NSW", datetime(2026, 8, 17), 60,
                         mean_at, 0.05, None, datetime(2026, 10, 3, 16))


def loads_la_hourly(seed: int) -> Estate:
    """New, held out (issue 16, time zones): rows loaded per hour by a Los Angeles team, points at
    UTC hours. Business hours (08:00-18:00 local) carry the load, nights 0.2 of it; a nightly batch
    at 02:00 local x3 that runs every day, weekends and holidays too (a weekday x hour shape:
    weekend and holiday business hours x0.35, the batch hour unchanged); daylight saving ends on
    2026-11-01 (a 25-hour local day, 01:00 twice) and Veterans Day falls inside the evaluated
    fortnight; a +25% step on 2026-11-09 09:00 local (accepted by the owner); 4% noise."""
    def mean_at(local: datetime, holiday: bool) -> float:
        if local.hour == 2:
            return 9_000.0
        business = 8 <= local.hour < 18
        quiet = local.weekday() >= 5 or holiday
        return 3_000 * (1.0 if business else 0.2) * (0.35 if business and quiet else 1.0)
    return _local_hourly("loads_la_hourly", seed, "America/Los_Angeles", "US", "CA", datetime(2026, 9, 20), 56,
                         mean_at, 0.04, (datetime(2026, 11, 9, 17), 1.25), datetime(2026, 11, 1, 9))


def logins_berlin_hourly(seed: int) -> Estate:
    """New, held out (issue 16, hourly round): logins per hour of a Berlin team's customers,
    points at UTC hours. The clocks go forward on 2026-03-29 (a 23-hour local day, no 02:00) and
    Good Friday (x0.35 in business hours) and Easter Monday (x0.5) fall inside the evaluated
    fortnight, with evenings on both x1.2; weekdays peak at 10:00 and 15:00 with a lunch dip,
    weekends are quiet by day (x0.4) and busier in the evening (19:00-22:00 x1.3): a weekday x
    hour shape whose holidays are neither a weekday nor a weekend; a -20% step on 2026-04-01
    10:00 local (a customer left; accepted by the owner); 5% noise; +0.05%/day."""
    def mean_at(local: datetime, holiday: bool) -> float:
        h = local.hour + 0.5
        shape = 0.1 + math.exp(-((h - 10.5) / 2.0) ** 2) + 0.9 * math.exp(-((h - 15.5) / 2.0) ** 2)
        if local.hour in (12, 13):
            shape *= 0.8
        business, evening = 8 <= local.hour < 19, 19 <= local.hour < 23
        quiet = local.weekday() >= 5
        if holiday:
            name = _BERLIN.name(local.date())
            factor = (0.35 if "Good Friday" in name else 0.5) if business else 1.2 if evening else 1.0
        else:
            factor = (0.4 if business else 1.3 if evening else 1.0) if quiet else 1.0
        return 5_000 * shape * factor
    return _local_hourly("logins_berlin_hourly", seed, "Europe/Berlin", "DE", "BE", datetime(2026, 2, 1), 67,
                         mean_at, 0.05, (datetime(2026, 4, 1, 8), 0.8), datetime(2026, 3, 29, 1))


_BERLIN = HolidayCalendar(country="DE", subdiv="BE")


def tickets_kolkata_hourly(seed: int) -> Estate:
    """New, held out (issue 16, hourly round): support tickets per hour of an Indian team in
    Asia/Kolkata (half an hour off UTC: the hours start at :30 UTC), with partitions only in
    business hours: 09:00-18:00 local Monday to Saturday, none at night, on Sundays or on
    holidays (Mahatma Gandhi's Birthday and Dussehra are gaps of a day; Dussehra falls inside the
    evaluated fortnight). The first hour of a day carries the night's backlog (x1.4), after a
    closed day (a Sunday, a holiday) x1.8; a lunch dip at 13:00 (x0.7); Saturdays x0.6; 6% noise;
    +0.1%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="IN")
    shares = _shares(rng)
    tz = ZoneInfo("Asia/Kolkata")
    start = datetime(2026, 7, 5, 18, 30)  # 2026-07-06 00:00 local
    series, cats, previous_open = [], {}, None
    for i in range(24 * 112):
        at = start + timedelta(hours=i)
        local = _local_hour(at, tz)
        if not 9 <= local.hour < 18 or local.weekday() == 6 or cal.name(local.date()):
            continue
        day = local.date()
        mean = 800 * math.exp(0.001 * i / 24) * (0.6 if local.weekday() == 5 else 1.0) * (0.7 if local.hour == 13 else 1.0)
        if local.hour == 9:
            after_closure = previous_open is not None and (day - previous_open).days > 1
            mean *= 1.8 if after_closure else 1.4
            if after_closure and (day - previous_open).days > 1 and any(
                    cal.name(previous_open + timedelta(days=k)) for k in range(1, (day - previous_open).days)):
                cats[at] = "after_holiday"
        previous_open = day
        series.append((at, [_noisy(rng, mean * s, 0.06) for s in shares]))
    first = next(k for k, (at, _) in enumerate(series) if at >= datetime(2026, 10, 12))
    return Estate("tickets_kolkata_hourly", "hour", series, first, cal, cats, timezone="Asia/Kolkata")


def _index_from(series: list[tuple[datetime, list[float]]], first: date) -> int:
    """The index of the first partition on or after `first` (series with closed days)."""
    return next(i for i, (at, _) in enumerate(series) if at.date() >= first)


def orders_in(seed: int) -> Estate:
    """New, held out (issue 16, third round): Indian daily orders, closed on Sundays (no partition),
    Saturdays the busiest day; Indian public holidays x0.5 and Diwali x0.2 (it moves by the lunar
    calendar: 2024-10-31, 2025-10-20, 2026-11-08); the festive shopping days before Diwali (the
    eight calendar days before it, in no calendar) x1.35; a monsoon dip from mid-June to
    mid-September, deepest (x0.8) in early August; 6% noise; +0.04%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="IN")
    shares = _shares(rng)
    shape = [1.0, 0.95, 0.95, 1.0, 1.1, 1.25]
    diwalis = [d for y in range(2024, 2027) for d in _holiday_days(cal, y) if "Diwali" in cal.name(d)]
    festive = {d - timedelta(days=k) for d in diwalis for k in range(1, 9)}
    start, n = date(2024, 1, 1), 800
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        if d.weekday() == 6:
            continue
        at = datetime(d.year, d.month, d.day)
        mean = 12_000 * math.exp(0.0004 * i) * shape[d.weekday()]
        monsoon_day = (d - date(d.year, 6, 15)).days
        if 0 <= monsoon_day <= 92:
            mean *= 1 - 0.2 * math.sin(monsoon_day / 92 * math.pi)
            cats[at] = "monsoon"
        hol = cal.name(d)
        if hol:
            mean *= 0.2 if "Diwali" in hol else 0.5
            cats[at] = "holiday"
        elif d in festive:
            mean *= 1.35
            cats[at] = "holiday"
        series.append((at, [_noisy(rng, mean * s, 0.06) for s in shares]))
    return Estate("orders_in", "day", series, _index_from(series, date(2025, 2, 10)), cal, cats)


def payroll_uk_monthly(seed: int) -> Estate:
    """New, held out (issue 16, third round): UK payroll lines, one partition a month dated on the
    pay day, the last working day of the month (England's bank holidays and weekends moved it
    earlier: 2024-03-28, before Good Friday); December x1.5 (bonuses), March x1.2 (the fiscal
    year's bonus), headcount +0.8%/month, a +15% step (an acquisition) in month 40, 4% noise."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    shares = _shares(rng)
    series, cats, shifts = [], {}, []
    level = 40_000.0
    for i, month_end in enumerate(_month_ends(date(2022, 1, 1), 54)):
        pay = month_end
        while pay.weekday() >= 5 or cal.name(pay):
            pay -= timedelta(days=1)
        at = datetime(pay.year, pay.month, pay.day)
        if i == 40:
            level *= 1.15
            shifts.append(at)
        mean = level * 1.008 ** i * (1.5 if pay.month == 12 else 1.2 if pay.month == 3 else 1.0)
        if pay.month in (3, 12):
            cats[at] = "period_end"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    for k, (at, _) in enumerate(series):
        if shifts and at >= shifts[0] and k < 44:
            cats.setdefault(at, "after_shift")
    return Estate("payroll_uk_monthly", "day", series, 30, cal, cats, shifts)


def tickets_weekend(seed: int) -> Estate:
    """New, held out (issue 16, third round): daily support tickets, every day of the week, whose
    weekend share changes twice: weekend support launched on day 470 (Saturday 0.5 -> 0.85, Sunday
    0.4 -> 0.75) and cut back on day 610 (Saturday 0.65, Sunday 0.55, Friday a little heavier);
    US holidays x0.6; 5% noise; flat."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    shares = _shares(rng)
    shapes = [(0, [1.0, 1.0, 1.0, 1.0, 0.95, 0.5, 0.4]), (470, [1.0, 1.0, 1.0, 1.0, 0.95, 0.85, 0.75]),
              (610, [1.0, 1.0, 1.0, 1.0, 1.05, 0.65, 0.55])]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        shape = [s for first, s in shapes if i >= first][-1]
        mean = 9_000 * shape[d.weekday()]
        if cal.name(d):
            mean *= 0.6
            cats[at] = "holiday"
        if any(0 <= i - first < 56 for first, _ in shapes[1:]):
            cats.setdefault(at, "after_shape_change")
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    shape_at = [datetime.combine(start + timedelta(days=first), datetime.min.time()) for first, _ in shapes[1:]]
    return Estate("tickets_weekend", "day", series, 400, cal, cats, shape_at=shape_at)


def orders_sa(seed: int) -> Estate:
    """New, held out (issue 16, fourth round): Saudi daily orders on the `holidays` package's Saudi
    calendar (a Friday/Saturday weekend). Ramadan (the 30 days before the first Eid al-Fitr day, in
    no calendar, 11 days earlier each year) x1.15 and its last ten days x1.35 (shopping for Eid);
    Eid al-Fitr and Eid al-Adha days x0.35 and x0.5, the Day of Arafah x0.8, National Day and
    Founding Day x1.25 (sales); a weekday shape that switches its weekend for good on day 500 (the
    business follows a Saturday/Sunday week: Friday 0.6 -> 1.1, Sunday 1.05 -> 0.6); 5% noise;
    +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SA")
    shares = _shares(rng)
    firsts = []
    for y in range(2024, 2027):
        eid = [d for d in _holiday_days(cal, y) if cal.name(d).startswith("Eid al-Fitr")]
        if eid:
            firsts.append(min(eid))
    ramadan = {e - timedelta(days=k): k for e in firsts for k in range(1, 31)}
    before, after = [1.0, 1.0, 1.0, 1.15, 0.6, 0.8, 1.05], [1.05, 1.0, 1.0, 1.0, 1.1, 0.7, 0.6]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 15_000 * math.exp(0.0003 * i) * (before if i < 500 else after)[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= (0.35 if hol.startswith("Eid al-Fitr") else 0.5 if hol.startswith("Eid al-Adha")
                     else 0.8 if "Arafah" in hol else 1.25)
            cats[at] = "holiday"
        elif d in ramadan:
            mean *= 1.35 if ramadan[d] <= 10 else 1.15
            cats[at] = "ramadan"
        if 0 <= i - 500 < 56:
            cats.setdefault(at, "after_shape_change")
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    return Estate("orders_sa", "day", series, 400, cal, cats,
                  shape_at=[datetime.combine(start + timedelta(days=500), datetime.min.time())])


def sales_445_monthly(seed: int) -> Estate:
    """New, held out (issue 16, fourth round): retail sales by fiscal period on a 4-4-5 calendar
    (each quarter two 4-week periods and one 5-week period; the year starts on the Sunday after
    the last Saturday of January), one partition per period dated on its closing Saturday, so a
    calendar month may hold two period ends or none; a period's sales follow its weeks (5-week
    periods x1.25), the holiday season (the periods closing in November and around New Year x1.3
    and x1.6 in the fiscal calendar's 10th and 11th periods), January's slump (the 12th x0.85);
    +0.5%/period; 4% noise."""
    rng = random.Random(seed)
    shares = _shares(rng)
    series, cats = [], {}
    jan31 = date(2021, 1, 31)
    last_sat = jan31 - timedelta(days=(jan31.weekday() - 5) % 7)
    end, i = last_sat, 0
    season = {10: 1.3, 11: 1.6, 12: 0.85}
    for _year in range(5):
        for period in range(1, 13):
            weeks = 5 if period % 3 == 0 else 4
            end = end + timedelta(weeks=weeks)
            at = datetime(end.year, end.month, end.day)
            mean = 200_000 * 1.005 ** i * weeks / 4 * season.get(period, 1.0)
            if weeks == 5 or period in season:
                cats[at] = "period_end"
            series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
            i += 1
    return Estate("sales_445_monthly", "day", series, 36, HolidayCalendar(), cats)


def bookings_gb_weekly(seed: int) -> Estate:
    """New, held out (issue 16, fourth round): weekly holiday bookings in England (a partition per
    Monday-starting week), school holidays in no calendar: the summer weeks (Mondays from 20 July to
    31 August) x1.6, the two weeks around Easter x1.25, October half-term (the last Monday of
    October) x1.15; the weeks holding Christmas x0.5 and New Year's Day x0.7; two level shifts five
    weeks apart (a partner joins at week 140: +25%; it drops a channel at week 145: -20%); 6% noise;
    +0.1%/week."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    shares = _shares(rng)
    start, n = date(2022, 1, 3), 210
    series, cats, shifts = [], {}, []
    level = 8_000.0
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        if i in (140, 145):
            level *= 1.25 if i == 140 else 0.8
            shifts.append(at)
        mean = level * math.exp(0.001 * i)
        easter = _easter(monday.year)
        oct31 = date(monday.year, 10, 31)
        half_term = oct31 - timedelta(days=oct31.weekday())
        names = {cal.name(monday + timedelta(days=k)) for k in range(7)} - {""}
        if date(monday.year, 7, 20) <= monday <= date(monday.year, 8, 31):
            mean *= 1.6
            cats[at] = "school_holiday"
        elif abs((monday - easter).days) <= 7:
            mean *= 1.25
            cats[at] = "school_holiday"
        elif monday == half_term:
            mean *= 1.15
            cats[at] = "school_holiday"
        for name in names:
            mean *= 0.5 if "Christmas" in name else 0.7 if "New Year" in name else 1.0
        if names:
            cats.setdefault(at, "holiday")
        series.append((at, [_noisy(rng, mean * s, 0.06) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(weeks=1), 8, first=1)
    return Estate("bookings_gb_weekly", "day", series, 106, cal, cats, shifts)


# The fifth round (issue 16): estates written blind, by someone who had read only the model's public
# API, to look like other teams' real data; first run on the model as it stood (3c3a7a2)


def _business_days(cal: HolidayCalendar, first: date, last: date, weekend: tuple[int, ...] = (5, 6)) -> list[date]:
    """Days outside the `weekend` (weekday numbers) that are not holidays in `cal`, from `first` to
    `last` inclusive."""
    days, day = [], first
    while day <= last:
        if day.weekday() not in weekend and not cal.name(day):
            days.append(day)
        day += timedelta(days=1)
    return days


def journals_au(seed: int) -> Estate:
    """Blind (fifth round): an Australian GL journal feed on business days only (NSW holidays and
    weekends closed, no partition); the month-end close on the last three business days x1.6, x2.0
    and x2.4, quarter closes x1.15 more, the fiscal year's close (June) x1.4 more; the first business
    day x1.3 and, after the June close, the next four x1.2 (year-end adjustments); 4% noise;
    +0.02%/day. The owner configures the fiscal year (`fiscal_year_end: 6`), as session 9 made possible."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AU", subdiv="NSW", fiscal_year_end=6)
    shares = _shares(rng)
    start = date(2023, 7, 1)
    days = _business_days(cal, start, date(2026, 6, 30))  # whole months: a close needs its month's last day
    by_month: dict[tuple[int, int], list[date]] = {}
    for d in days:
        by_month.setdefault((d.year, d.month), []).append(d)
    close = [rng.uniform(1.5, 1.7), rng.uniform(1.9, 2.1), rng.uniform(2.3, 2.5)]
    series, cats = [], {}
    for d in days:
        month = by_month[(d.year, d.month)]
        at = datetime(d.year, d.month, d.day)
        mean = 5_000 * math.exp(0.0002 * (d - start).days)
        position, from_end = month.index(d), len(month) - 1 - month.index(d)
        if from_end < 3:
            mean *= close[2 - from_end] * (1.4 if d.month == 6 else 1.15 if d.month % 3 == 0 else 1.0)
            cats[at] = "period_end"
        elif position == 0:
            mean *= 1.3
            cats[at] = "period_start"
        elif d.month == 7 and position < 5:
            mean *= 1.2
            cats[at] = "period_start"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("journals_au", "day", series, _index_from(series, date(2025, 7, 1)), cal, cats)


def orders_fr(seed: int) -> Estate:
    """Blind (fifth round): French daily orders whose history holds unlabelled incidents nobody
    marked (partial loads at 0.4-0.7x of the table or 0.2-0.4x of one source, a duplicated day,
    a two-day outage at zero rows, a late day at 0.1x: about one every 40 days, in the history the
    check reads, never evaluated); French holidays x0.6, Christmas x0.35, the August holidays
    (1-25 Aug) x0.85; 4% noise; +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="FR")
    shares = _shares(rng)
    shape = [1.05, 1.0, 1.0, 1.0, 1.05, 0.85, 0.7]
    start, n = date(2024, 1, 1), 760
    # the incidents: kinds in a fixed mix, at random days (not holidays) at least 12 days apart
    kinds = ["partial", "partial_group", "late", "partial", "duplicated", "partial", "outage", "partial_group",
             "partial", "late", "partial", "duplicated", "partial_group", "outage", "partial", "late", "partial",
             "partial"]
    at_day: dict[int, str] = {}
    while len(at_day) < len(kinds):
        i = rng.randrange(20, n - 1)
        d = start + timedelta(days=i)
        if all(abs(i - j) >= 12 for j in at_day) and not cal.name(d) and not cal.name(d + timedelta(days=1)):
            at_day[i] = kinds[len(at_day)]
    series, cats, incidents = [], {}, set()
    outage_next = False
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 18_000 * math.exp(0.0003 * i) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.35 if "Christmas" in hol else 0.6
            cats[at] = "holiday"
        elif d.month == 8 and d.day <= 25:
            mean *= 0.85
            cats[at] = "summer"
        groups = [_noisy(rng, mean * s, 0.04) for s in shares]
        kind = "outage" if outage_next else at_day.get(i)
        outage_next = False
        if kind:
            incidents.add(at)
            if kind == "partial":
                factor = rng.uniform(0.4, 0.7)
                groups = [round(v * factor) for v in groups]
            elif kind == "partial_group":
                g = rng.randrange(GROUPS)
                groups[g] = round(groups[g] * rng.uniform(0.2, 0.4))
            elif kind == "late":
                groups = [round(v * 0.1) for v in groups]
            elif kind == "duplicated":
                groups = [v * 2 for v in groups]
            else:  # a two-day outage: this day and the next at zero rows
                groups = [0.0] * GROUPS
                outage_next = at_day.get(i) == "outage"
        series.append((at, groups))
    for at in sorted(incidents):
        for k in range(1, 15):
            nxt = at + timedelta(days=k)
            if nxt not in incidents:
                cats.setdefault(nxt, "after_incident")
    return Estate("orders_fr", "day", series, 400, cal, cats, incidents=incidents)


def bookings_nl(seed: int) -> Estate:
    """Blind (fifth round): restaurant bookings of a table created eight weeks before the first
    evaluated partition (2026-03-02; Easter in its history; King's Day, Ascension and Whitsun in
    the evaluated twelve weeks): Friday and Saturday busiest, Monday quietest; Dutch holidays x1.15
    (eating out), King's Day x0.6 (street parties); a young product's growth, +0.25%/day; 5%
    noise. The first four evaluated weeks (under twelve weeks of history) are their own kind."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NL")
    shares = _shares(rng)
    shape = [0.7, 0.75, 0.85, 0.95, 1.3, 1.45, 1.0]
    start, n, first = date(2026, 3, 2), 56 + 84, 56
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 4_000 * math.exp(0.0025 * i) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.6 if "King" in hol else 1.15
            cats[at] = "holiday"
        elif first <= i < first + 28:
            cats[at] = "young"
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    return Estate("bookings_nl", "day", series, first, cal, cats)


def subscriptions_ca(seed: int) -> Estate:
    """Blind (fifth round): Canadian (Ontario) daily subscriptions: a launch that grows the level
    2.1x along a logistic curve (5% to 95% of the growth in about eleven weeks, centred on day 470),
    a plateau, then a slow decline of -30% over three months (days 620-710) and a plateau; Mondays
    heaviest, weekends light; holidays x0.7, Christmas x0.4; 4% noise. The ramp's and the decline's
    days (and two weeks after each) are their own kinds."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CA", subdiv="ON")
    shares = _shares(rng)
    shape = [1.1, 1.05, 1.0, 1.0, 0.95, 0.8, 0.85]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        grown = 1 / (1 + math.exp(-0.0785 * (i - 470)))
        declined = min(max(i - 620, 0), 90) / 90
        mean = 7_000 * math.exp(math.log(2.1) * grown + math.log(0.7) * declined) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.4 if "Christmas" in hol else 0.7
            cats[at] = "holiday"
        elif 0.05 < grown and i <= 470 + 38 + 14:
            cats[at] = "ramp"
        elif 620 <= i <= 710 + 14:
            cats[at] = "decline"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("subscriptions_ca", "day", series, 400, cal, cats)


def payments_gb_il(seed: int) -> Estate:
    """Blind (fifth round): daily card payments of a UK business in five markets of very unequal
    size (47%, 28%, 15%, 8.5% and 1.5%); the four large ones follow England's week (Friday
    heaviest, Sunday light) and bank holidays (x0.6); the small one is Israel, with its own week
    (Sunday a working day, Friday x0.55, Saturday x0.35) and holidays (x0.3), 8% noise against 3%
    for the others; +0.03%/day. The check's calendar is England's; since session 9 the owner gives
    the Israeli market Israel's (`group_holidays`), the table total keeping England's."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    israel = HolidayCalendar(country="IL")
    shares = [0.47, 0.28, 0.15, 0.085, 0.015]
    rng.shuffle(shares)
    small = shares.index(0.015)
    uk, il = [1.0, 1.0, 1.0, 1.05, 1.15, 0.9, 0.7], [1.05, 1.0, 1.0, 1.1, 0.55, 0.35, 1.1]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        level = 40_000 * math.exp(0.0003 * i)
        groups = []
        for g, share in enumerate(shares):
            if g == small:
                mean = level * share * il[d.weekday()] * (0.3 if israel.name(d) else 1.0)
                groups.append(_noisy(rng, mean, 0.08))
            else:
                mean = level * share * uk[d.weekday()] * (0.6 if cal.name(d) else 1.0)
                groups.append(_noisy(rng, mean, 0.03))
        if cal.name(d):
            cats[at] = "holiday"
        elif israel.name(d):
            cats[at] = "foreign_holiday"
        series.append((at, groups))
    return Estate("payments_gb_il", "day", series, 400, cal, cats,
                  group_calendars=[israel if g == small else None for g in range(len(shares))])


def telemetry_chicago_hourly(seed: int) -> Estate:
    """Blind (fifth round): device telemetry per hour, 24/7, users in Chicago (points at UTC hours):
    a daily cycle (x1.5 at 15:00 local, x0.5 at 03:00), weekends x0.9, a weekly maintenance window
    on Sundays 02:00-04:00 local at x0.1 and the devices' buffered rows flushed at 04:00 (x1.8); US
    holidays x0.95; 3% noise; the last eight days evaluated (a Sunday, no holiday, no DST change)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    shares = _shares(rng)
    tz = ZoneInfo("America/Chicago")
    start, n = datetime(2026, 4, 27, 5), 24 * 40  # 2026-04-27 00:00 local (CDT)
    series, cats = [], {}
    for i in range(n):
        at = start + timedelta(hours=i)
        local = _local_hour(at, tz)
        mean = 2_000 * (1 + 0.5 * math.cos((local.hour - 15) / 24 * 2 * math.pi)) * math.exp(0.0005 * i / 24)
        if local.weekday() >= 5:
            mean *= 0.9
        if local.weekday() == 6 and local.hour in (2, 3, 4):
            mean *= 0.1 if local.hour < 4 else 1.8
            cats[at] = "maintenance"
        if cal.name(local.date()):
            mean *= 0.95
            cats.setdefault(at, "holiday")
        series.append((at, [_noisy(rng, mean * s, 0.03) for s in shares]))
    return Estate("telemetry_chicago_hourly", "hour", series, n - 24 * 8, cal, cats, timezone="America/Chicago")


def invoices_it_monthly(seed: int) -> Estate:
    """Blind (fifth round): Italian invoices, one partition a month dated on the first of the month
    (the calendar is Italy's, so January's and November's partitions fall on holidays): December
    x0.6, January x1.45 (annual renewals), August x0.75 (Ferragosto); +0.8%/month; 4% noise."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="IT")
    shares = _shares(rng)
    series, cats = [], {}
    for i in range(60):
        y, m = 2021 + i // 12, i % 12 + 1
        at = datetime(y, m, 1)
        factor = {12: 0.6, 1: 1.45, 8: 0.75}.get(m, 1.0)
        if m in (12, 1):
            cats[at] = "year_turn"
        elif m == 8:
            cats[at] = "summer"
        series.append((at, [_noisy(rng, 60_000 * 1.008 ** i * factor * s, 0.04) for s in shares]))
    return Estate("invoices_it_monthly", "day", series, 36, cal, cats)


def claims_de_weekly(seed: int) -> Estate:
    """Blind (fifth round): German insurance claims per ISO week (a partition per Monday, 2021 to
    ISO week 53 of 2026 and the week after): a yearly season (winter +15%, summer -15%, a cosine
    peaking mid-January), the Easter weeks moving with Easter (the week holding Good Friday x0.8,
    the one holding Easter Monday x0.85), the week holding Christmas x0.55 and the one holding New
    Year's Day x0.75; 5% noise; +0.1%/week."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="DE")
    shares = _shares(rng)
    start, n = date(2021, 1, 4), 314
    series, cats = [], {}
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        mid = monday + timedelta(days=3)
        season = 1 + 0.15 * math.cos((mid.timetuple().tm_yday - 15) / 365.25 * 2 * math.pi)
        mean = 30_000 * math.exp(0.001 * i) * season
        names = {cal.name(monday + timedelta(days=k)) for k in range(7)} - {""}
        for name in names:
            mean *= (0.8 if "Good Friday" in name else 0.85 if "Easter" in name else 0.55 if "Christmas Day" in name
                     else 0.75 if "New Year" in name else 1.0)
        if names:
            cats[at] = "holiday"
        if monday.isocalendar()[1] == 53:
            cats[at] = "week_53"
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    return Estate("claims_de_weekly", "day", series, 156, cal, cats)


def _poisson(rng: random.Random, lam: float) -> float:
    """A Poisson count (Knuth's method below 50, the normal approximation above): `random` has none,
    and numpy is not a dependency of the bench."""
    if lam >= 50:
        return max(0.0, round(rng.gauss(lam, math.sqrt(lam))))
    limit, k, p = math.exp(-lam), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return float(k)


def refunds_se(seed: int) -> Estate:
    """Blind (fifth round): Swedish refunds, a low-count table (about 60 rows a day: Poisson counts
    with 5% extra noise), its five reasons 24, 15, 10, 6 and 4 a day, so a small group has a clean
    day at zero now and then; weekdays busier than weekends (x0.6), Swedish holidays x0.5, the
    days after Christmas (27-30 Dec, returns) x1.6 in no calendar; flat."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SE")
    rates = [24.0, 15.0, 10.0, 6.0, 4.0]
    rng.shuffle(rates)
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        factor = 0.6 if d.weekday() >= 5 else 1.0
        if cal.name(d):
            factor *= 0.5
            cats[at] = "holiday"
        elif d.month == 12 and 27 <= d.day <= 30:
            factor *= 1.6
            cats[at] = "holiday"
        groups = [_poisson(rng, r * factor * math.exp(rng.gauss(0, 0.05))) for r in rates]
        if not cats.get(at) and min(groups) == 0:
            cats[at] = "group_at_zero"
        series.append((at, groups))
    return Estate("refunds_se", "day", series, 400, cal, cats)


def sellers_pl(seed: int) -> Estate:
    """Blind (fifth round): a Polish marketplace's daily listings by source, one of the five sources
    (an API opened to partners) launched 120 days before the first evaluated partition: zeros
    before, then a logistic climb over about three weeks to 20-30% of the total; the other four follow
    a Monday-heavy week, Polish holidays x0.4; 4% noise; +0.02%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PL")
    shares = _shares(rng)
    new = rng.randrange(GROUPS)
    shape = [1.2, 1.05, 1.0, 1.0, 0.95, 0.6, 0.5]
    start, n, launch = date(2024, 1, 1), 760, 280
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 25_000 * math.exp(0.0002 * i) * shape[d.weekday()]
        if cal.name(d):
            mean *= 0.4
            cats[at] = "holiday"
        groups = []
        for g, share in enumerate(shares):
            if g == new:
                grown = 0.0 if i < launch else 1 / (1 + math.exp(-0.4 * (i - launch - 10)))
                groups.append(_noisy(rng, mean * 0.25 * grown, 0.06) if grown else 0.0)
            else:
                groups.append(_noisy(rng, mean * share, 0.04))
        series.append((at, groups))
    return Estate("sellers_pl", "day", series, 400, cal, cats)


def rides_us(seed: int) -> Estate:
    """Blind (fifth round): daily bike-share rides in New York by station district: a strong yearly
    season (a cosine from x0.55 in late January to x1.35 in late July), weekends x0.85, US holidays
    x0.75, rainy days (about one in eight, at random, in no calendar) x0.6-0.8 on every district;
    5% noise; +0.03%/day. Rainy days are their own kind (weather, not a fault, yet the same
    observation as a drop)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US", subdiv="NY")
    shares = _shares(rng)
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        season = 0.95 - 0.40 * math.cos((d.timetuple().tm_yday - 25) / 365.25 * 2 * math.pi)
        mean = 30_000 * math.exp(0.0003 * i) * season * (0.85 if d.weekday() >= 5 else 1.0)
        if cal.name(d):
            mean *= 0.75
            cats[at] = "holiday"
        if rng.random() < 0.125:
            mean *= rng.uniform(0.6, 0.8)
            cats.setdefault(at, "rain")
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in shares]))
    return Estate("rides_us", "day", series, 400, cal, cats)


# the first day of Ramadan (the evening the new crescent is sighted; no holiday calendar lists it):
# 30 or 29 days before Eid al-Fitr
_RAMADAN_STARTS = (date(2024, 3, 11), date(2025, 3, 1), date(2026, 2, 18))


def orders_eg(seed: int) -> Estate:
    """New (issue 16, seventh round: seasons): Egyptian e-commerce orders, a Friday/Saturday weekend
    (Friday x0.8, Saturday x0.9, Thursday x1.1). Ramadan, in no calendar and 29 or 30 days long,
    x1.2 and its last ten days x1.35 (Eid shopping); Eid al-Fitr x0.6, Eid al-Adha x0.7, other
    holidays x0.85. 4.5% noise, +0.02%/day. Ramadan's days and the week after Eid al-Fitr are
    categorised "ramadan"; holidays "holiday"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="EG")
    shares = _shares(rng)
    shape = [1.0, 1.0, 1.0, 1.1, 0.8, 0.9, 1.0]
    eid_firsts = [min(d for d in _holiday_days(cal, y) if cal.name(d).startswith("Eid al-Fitr")) for y in range(2024, 2027)]
    ramadan: dict[date, float] = {}
    after_eid: set[date] = set()
    for first, eid in zip(_RAMADAN_STARTS, eid_firsts):
        length = (eid - first).days
        for k in range(length):
            ramadan[first + timedelta(days=k)] = 1.35 if k >= length - 10 else 1.2
        after_eid.update(eid + timedelta(days=k) for k in range(7))
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 15_000 * math.exp(0.0002 * i) * shape[d.weekday()] * ramadan.get(d, 1.0)
        hol = cal.name(d)
        if hol:
            mean *= 0.6 if hol.startswith("Eid al-Fitr") else 0.7 if hol.startswith("Eid al-Adha") else 0.85
            cats[at] = "holiday"
        elif d in ramadan or d in after_eid:
            cats[at] = "ramadan"
        series.append((at, [_noisy(rng, mean * s, 0.045) for s in shares]))
    return Estate("orders_eg", "day", series, 400, cal, cats)


def orders_vn(seed: int) -> Estate:
    """New (issue 16, eighth round: Lunar New Year): Vietnamese e-commerce orders, every day.
    The weeks around Tet, by the calendar's "Lunar New Year" days: a rush over the 7-14 days (by
    seed) before its first day x1.3, Tet's own days x0.35, and a slow return over the 7-21 days
    after its last day, from x0.6 back to x1.0 in a straight line. Other holidays x0.8; weekends
    lighter (Saturday x0.9, Sunday x0.85); 4% noise, +0.03%/day. The rush and return days are
    categorised "lunar_new_year", holidays "holiday"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="VN")
    shares = _shares(rng)
    shape = [1.0, 1.0, 1.05, 1.05, 1.1, 0.9, 0.85]
    rush_days, slow_days = rng.randint(7, 14), rng.randint(7, 21)
    season: dict[date, float] = {}
    for y in range(2024, 2028):
        tet = [d for d in _holiday_days(cal, y) if "Lunar New Year" in cal.name(d)]
        if not tet:
            continue
        season.update({min(tet) - timedelta(days=k): 1.3 for k in range(1, rush_days + 1)})
        season.update({max(tet) + timedelta(days=k): 0.6 + 0.4 * (k - 1) / slow_days for k in range(1, slow_days + 1)})
    start, n = date(2024, 6, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 12_000 * math.exp(0.0003 * i) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.35 if "Lunar New Year" in hol else 0.8
            cats[at] = "holiday"
        elif d in season:
            mean *= season[d]
            cats[at] = "lunar_new_year"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("orders_vn", "day", series, 400, cal, cats)


# The eighth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), held out until the round's final run


def _lunar_blocks(cal: HolidayCalendar, first: date, last: date) -> list[tuple[date, date]]:
    """Seollal's and Chuseok's closures, (first day, last day), a bridging holiday or weekend next to
    them included (Chuseok 2025 runs from National Foundation Day to Hangul Day)."""
    blocks: list[tuple[date, date]] = []
    day = first
    while day <= last:
        name = cal.name(day)
        if "Korean New Year" in name or "Chuseok" in name:
            start = day
            while cal.name(start - timedelta(days=1)) or (start - timedelta(days=1)).weekday() >= 5:
                start -= timedelta(days=1)
            end = day
            while cal.name(end + timedelta(days=1)) or (end + timedelta(days=1)).weekday() >= 5:
                end += timedelta(days=1)
            if not blocks or blocks[-1][1] < start:
                blocks.append((start, end))
            day = end
        day += timedelta(days=1)
    return blocks


def returns_kr(seed: int) -> Estate:
    """Blind (eighth round): a Korean e-commerce business's daily returns by carrier (five carriers of
    unequal size, 40/25/17/11/7% in an order set by the seed). A Monday-heavy week (pickups booked over
    the weekend: Monday x1.3, Saturday x0.6, Sunday x0.4). Seollal and Chuseok (the `holidays` KR
    days, their alternative days and any holiday or weekend bridging them) x0.3, other holidays x0.6;
    the gift-shopping rush in orders before them comes back as returns in the week after the closure:
    x1.2 rising to x1.55 on its fourth day, then easing to x1.15 on its seventh. A new carrier contract
    on day 600 (2025-08-23): the carrier holding 11% takes on a new return service, +25% of the whole
    table (that carrier x3.3, the others unchanged; accepted by the owner). 5% noise, +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="KR")
    shares = [0.40, 0.25, 0.17, 0.11, 0.07]
    rng.shuffle(shares)
    joiner = shares.index(0.11)
    shape = [1.3, 1.1, 1.0, 1.0, 0.95, 0.6, 0.4]
    rebound = [1.2, 1.35, 1.5, 1.55, 1.45, 1.3, 1.15]
    start, n, shift_day = date(2024, 1, 1), 800, 600
    after: dict[date, float] = {}
    for _, end in _lunar_blocks(cal, start, start + timedelta(days=n)):
        for k, factor in enumerate(rebound):
            after[end + timedelta(days=k + 1)] = factor
    series, cats, shifts = [], {}, []
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 6_000 * math.exp(0.0003 * i) * shape[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.3 if "Korean New Year" in hol or "Chuseok" in hol else 0.6
            cats[at] = "holiday"
        elif d in after:
            mean *= after[d]
            cats[at] = "after_holiday"
        current = list(shares)
        if i >= shift_day:
            current[joiner] += 0.25
        if i == shift_day:
            shifts.append(at)
        series.append((at, [_noisy(rng, mean * s, 0.05) for s in current]))
    _mark_after_shift(cats, shifts, timedelta(days=1), 28)
    return Estate("returns_kr", "day", series, 440, cal, cats, shifts)


def journals_sa(seed: int) -> Estate:
    """Blind (eighth round): a Saudi group's GL journal feed, one partition per business day of a
    Sunday-Thursday week (Fridays, Saturdays and the calendar's holidays: Eid al-Fitr, Eid al-Adha,
    Founding Day, National Day, have no rows). The month-end close on the last three business days
    x1.5, x1.9 and x2.4 (jittered per seed), quarter closes x1.3 more and the year's (December) x1.6
    more; payroll journals on the last business day on or before the 27th x1.3. Ramadan (in no
    calendar: from its first day to the day before the calendar's first Eid al-Fitr day) x0.8, shorter
    working hours. Five entities of unequal size; 4% noise; +0.02%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SA")
    shares = _shares(rng)
    start = date(2023, 7, 2)
    days = _business_days(cal, start, date(2026, 6, 30), weekend=(4, 5))
    eid_firsts = [min(d for d in _holiday_days(cal, y) if cal.name(d).startswith("Eid al-Fitr")) for y in range(2024, 2027)]
    ramadan = {first + timedelta(days=k) for first, eid in zip(_RAMADAN_STARTS, eid_firsts)
               for k in range((eid - first).days)}
    by_month: dict[tuple[int, int], list[date]] = {}
    for d in days:
        by_month.setdefault((d.year, d.month), []).append(d)
    payroll = {max(d for d in month if d.day <= 27) for month in by_month.values() if month[0].day <= 27}
    close = [rng.uniform(1.4, 1.6), rng.uniform(1.8, 2.0), rng.uniform(2.3, 2.5)]
    series, cats = [], {}
    previous = None
    for d in days:
        month = by_month[(d.year, d.month)]
        at = datetime(d.year, d.month, d.day)
        mean = 4_000 * math.exp(0.0002 * (d - start).days)
        from_end = len(month) - 1 - month.index(d)
        if d in payroll:
            mean *= 1.3
            cats[at] = "payroll"
        if from_end < 3:
            mean *= close[2 - from_end] * (1.6 if d.month == 12 else 1.3 if d.month % 3 == 0 else 1.0)
            cats[at] = "period_end"
        if d in ramadan:
            mean *= 0.8
            cats.setdefault(at, "ramadan")
        if previous and any(cal.name(previous + timedelta(days=k)) for k in range(1, (d - previous).days)):
            cats.setdefault(at, "after_holiday")
        previous = d
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("journals_sa", "day", series, _index_from(series, date(2025, 7, 1)), cal, cats)


def settlements_ca(seed: int) -> Estate:
    """Blind (eighth round): an Ontario acquirer's card settlement files by scheme, loaded on business
    days only (no partition on weekends or Ontario holidays): each load carries the card activity of
    every day since the previous load, so Monday holds the weekend's too (Saturday's activity x0.8,
    Sunday's x0.7: Monday ~2.5x a midweek day), a holiday Monday moves the catch-up to Tuesday (~3.1x)
    and Christmas with Boxing Day on Thursday and Friday lands five days on the Monday. Holidays'
    own activity x0.6, December's x1.15, January's x0.9; five schemes of unequal size; 4% noise on
    each load; +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CA", subdiv="ON")
    shares = _shares(rng)
    start = date(2024, 1, 1)
    days = _business_days(cal, start, date(2026, 10, 30))

    def activity(d: date) -> float:
        factor = 0.6 if cal.name(d) else 0.8 if d.weekday() == 5 else 0.7 if d.weekday() == 6 else 1.0
        return factor * (1.15 if d.month == 12 else 0.9 if d.month == 1 else 1.0) * math.exp(0.0003 * (d - start).days)

    series, cats = [], {}
    previous = start - timedelta(days=1)
    for d in days:
        at = datetime(d.year, d.month, d.day)
        covered = [previous + timedelta(days=k) for k in range(1, (d - previous).days + 1)]
        mean = 30_000 * sum(activity(c) for c in covered)
        if any(cal.name(c) for c in covered):
            cats[at] = "after_holiday"
        previous = d
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("settlements_ca", "day", series, _index_from(series, date(2025, 9, 1)), cal, cats)


# The ninth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (four, three, five, five)


def _unequal(rng: random.Random, shares: list[float]) -> list[float]:
    """Fixed shares of unequal size in an order set by the seed."""
    out = list(shares)
    rng.shuffle(out)
    return out


def _rolled_back(day: date, open_days: set[date]) -> date:
    """`day`, or the nearest open day before it (a payday falling on a weekend or a holiday)."""
    while day not in open_days:
        day -= timedelta(days=1)
    return day


def payouts_us(seed: int) -> Estate:
    """Blind (ninth round): a US payroll provider's payouts by product (four products: payroll,
    contractors, benefits, expenses, 45/30/15/10% in an order set by the seed), loaded on federal
    business days only (weekends and the calendar's federal holidays have no partition). Paydays:
    the 15th, rolled back to the business day before it when it falls on a weekend or holiday,
    x2.2 (x1.9-2.5 per seed), and the month's last business day x2.6 (x2.3-2.9); the business day
    before each payday x1.3 (early files); the first business day after a holiday closure x1.25
    (the closed day's payouts land on it); 4% noise; +0.025%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    shares = _unequal(rng, [0.45, 0.30, 0.15, 0.10])
    start = date(2023, 7, 3)
    days = _business_days(cal, start, date(2026, 6, 30))
    open_days = set(days)
    months = sorted({(d.year, d.month) for d in days})
    mid = {_rolled_back(date(y, m, 15), open_days) for y, m in months}
    last = {max(d for d in days if (d.year, d.month) == ym) for ym in months}
    mid_lift, end_lift = rng.uniform(1.9, 2.5), rng.uniform(2.3, 2.9)
    series, cats = [], {}
    previous = None
    for i, d in enumerate(days):
        at = datetime(d.year, d.month, d.day)
        mean = 9_000 * math.exp(0.00025 * (d - start).days)
        nxt = days[i + 1] if i + 1 < len(days) else None
        if d in last:
            mean *= end_lift
            cats[at] = "payday"
        elif d in mid:
            mean *= mid_lift
            cats[at] = "payday"
        elif nxt in mid or nxt in last:
            mean *= 1.3
            cats[at] = "before_payday"
        if previous and any(cal.name(previous + timedelta(days=k)) for k in range(1, (d - previous).days)):
            mean *= 1.25
            cats.setdefault(at, "after_holiday")
        previous = d
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("payouts_us", "day", series, _index_from(series, date(2025, 7, 1)), cal, cats)


def sales_au(seed: int) -> Estate:
    """Blind (ninth round): a New South Wales retailer's daily sales by channel (three: stores 60%,
    online 28%, click and collect 12%, in an order set by the seed), every day. Stores and click and
    collect (picked up in store) peak on Saturday with late-night Thursday trading; online is flatter
    and heaviest on Sunday and Monday. December x1.25, January x0.85; Boxing Day (26 December, whatever
    its weekday) x2.5; Christmas Day and Good Friday the stores are closed (stores and click and
    collect x0.05, online x0.7); other NSW holidays x0.9 (ANZAC Day x0.7: stores shut until 1 pm);
    the end-of-financial-year sale, 15-30 June, x1.3 rising to x1.5 over its last three days; 4%
    noise; +0.02%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AU", subdiv="NSW", fiscal_year_end=6)
    channels = _unequal(rng, [0.60, 0.28, 0.12])
    online = channels.index(0.28)
    stores = [0.85, 0.85, 0.95, 1.2, 1.1, 1.4, 1.0]
    web = [1.1, 1.0, 1.0, 0.95, 0.9, 0.95, 1.15]
    start, n = date(2024, 1, 1), 800
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        level = 50_000 * math.exp(0.0002 * i) * (1.25 if d.month == 12 else 0.85 if d.month == 1 else 1.0)
        hol = cal.name(d)
        closed = "Christmas Day" in hol or "Good Friday" in hol
        if d.month == 12 and d.day == 26:
            day_factor = 2.5
            cats[at] = "boxing_day"
        elif hol:
            day_factor = 0.7 if "ANZAC" in hol else 1.0 if closed else 0.9
            cats[at] = "holiday"
        elif d.month == 6 and d.day >= 15:
            day_factor = 1.5 if d.day >= 28 else 1.3
            cats[at] = "eofy_sale"
        else:
            day_factor = 1.0
            if d.month in (12, 1):
                cats[at] = "season"
        groups = []
        for g, share in enumerate(channels):
            shape = web[d.weekday()] if g == online else stores[d.weekday()]
            factor = day_factor * ((0.7 if g == online else 0.05) if closed else 1.0)
            groups.append(_noisy(rng, level * share * shape * factor, 0.04))
        series.append((at, groups))
    return Estate("sales_au", "day", series, 400, cal, cats)


def streams_gb(seed: int) -> Estate:
    """Blind (ninth round): a UK streaming service's daily plays by device (five, of unequal size),
    every day: Friday x1.1, Saturday x1.25, Sunday x1.3, Monday-Thursday 1.0; a winter season (x1.1 in
    mid-January, x0.9 in mid-July); England's bank holidays x1.2 and Christmas Day x1.4. Day 500
    (2025-05-15): a licensing deal ends and the catalogue loses a studio's titles, -29% on every
    device (a step the owner accepts). Day 640 (2025-10-02): a new original series rolls out and the
    level climbs linearly by +40% over 21 days, then holds (not a step: nobody accepts it). 3% noise,
    +0.01%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    shares = _shares(rng)
    shape = [1.0, 1.0, 1.0, 1.0, 1.1, 1.25, 1.3]
    start, n, step_day, ramp_day, ramp_days = date(2024, 1, 1), 760, 500, 640, 21
    series, cats, shifts = [], {}, []
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        step = 0.71 if i >= step_day else 1.0
        ramp = 1 + 0.4 * min(max(i - ramp_day + 1, 0), ramp_days) / ramp_days
        season = 1 + 0.1 * math.cos((d.timetuple().tm_yday - 15) / 365.25 * 2 * math.pi)
        mean = 120_000 * math.exp(0.0001 * i) * step * ramp * season * shape[d.weekday()]
        if i == step_day:
            shifts.append(at)
        hol = cal.name(d)
        if hol:
            mean *= 1.4 if "Christmas" in hol else 1.2
            cats[at] = "holiday"
        elif ramp_day <= i < ramp_day + ramp_days + 14:
            cats[at] = "ramp"
        series.append((at, [_noisy(rng, mean * s, 0.03) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(days=1), 28)
    return Estate("streams_gb", "day", series, 400, cal, cats, shifts)


def trips_mx_hourly(seed: int) -> Estate:
    """Blind (ninth round): ride-hailing trips per hour in Mexico City (no daylight saving since
    2022), points at UTC hours, five zones with their own day: the centre (offices: commuting peaks
    at 08:00 and 19:00 on weekdays, quiet weekends), Polanco-Condesa (evenings and Friday-Saturday
    nights), the airport (flights from 06:00 to 23:00, every day alike), the north and the south
    (residential: an early commute out at 06:00-07:00 and home at 18:00-20:00). Mexican holidays
    (Revolution Day, the third Monday of November, inside the evaluated fortnight; Independence Day
    in the history) drop the commuting peaks: weekday zones take a Sunday's day, nightlife x1.2 on
    the evening before, the airport x1.15. 5% noise, +0.1%/day. The last fortnight is evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MX")
    zone = "America/Mexico_City"
    tz = ZoneInfo(zone)
    shares = _unequal(rng, [0.30, 0.22, 0.10, 0.20, 0.18])

    def bump(h: float, peak: float, width: float) -> float:
        return math.exp(-((h - peak) / width) ** 2)

    def zone_mean(kind: int, local: datetime, rest_day: bool, eve: bool) -> float:
        h = local.hour + 0.5
        night = (local.weekday() in (4, 5) and local.hour >= 20) or (local.weekday() in (5, 6) and local.hour < 4)
        if kind == 0:  # centre: offices
            return 0.1 + (0.5 * bump(h, 13, 4) if rest_day else bump(h, 8.5, 1.5) + 1.1 * bump(h, 19, 1.8) + 0.4 * bump(h, 14, 2))
        if kind == 1:  # nightlife
            base = 0.15 + 0.5 * bump(h, 14, 3) + 0.9 * bump(h, 21.5, 2.2)
            return base * (1.6 if night else 1.0) * (1.2 if eve and local.hour >= 18 else 1.0)
        if kind == 2:  # airport
            return (0.1 + 0.9 * (6 <= local.hour <= 23)) * (1.15 if rest_day and local.weekday() < 5 else 1.0)
        return 0.08 + (0.6 * bump(h, 12, 4) if rest_day else 1.1 * bump(h, 6.8, 1.2) + bump(h, 19, 1.5) + 0.3 * bump(h, 13, 3))

    start, days = datetime(2025, 9, 1, 6), 84  # 2025-09-01 00:00 local (UTC-6 all year)
    n = 24 * days
    series, cats = [], {}
    for i in range(n):
        at = start + timedelta(hours=i)
        local = _local_hour(at, tz)
        holiday = bool(cal.name(local.date()))
        eve = bool(cal.name(local.date() + timedelta(days=1)))
        rest_day = holiday or local.weekday() >= 5
        level = 12_000 * math.exp(0.001 * i / 24)
        groups = [_noisy(rng, level * share * zone_mean(min(g, 3), local, rest_day, eve), 0.05)
                  for g, share in enumerate(shares)]
        if holiday:
            cats[at] = "holiday"
        elif eve:
            cats[at] = "holiday_eve"
        series.append((at, groups))
    return Estate("trips_mx_hourly", "hour", series, n - 24 * 14, cal, cats, timezone=zone)


# The tenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (four, three, five, two)


def payroll_ca_biweekly(seed: int) -> Estate:
    """Blind (tenth round): an Ontario payroll processor's files by kind (four: salaried, hourly,
    contractors, deductions, 45/30/15/10% in an order set by the seed), loaded on Ontario business
    days only (weekends and the calendar's holidays have no partition). Pay runs every second Friday
    from 2023-07-14 (a 14-day cycle, not a day of the month: two paydays most months, three in some),
    rolled back to the business day before when the Friday is a holiday (Good Friday 2025 and 2026;
    Boxing Day 2025 lands on Wednesday 24 December, past Christmas Day); a pay run adds 1.2 days'
    files (x2.2, x2.0-2.4 per seed). The month's last business day carries a month-end batch
    (remittances, monthly salaried staff) adding 0.6 days' (x1.5-1.7 per seed), on top of a pay run
    when the two meet. Mondays x1.1 (the weekend's timesheets), Fridays x0.9; 4% noise;
    +0.02%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CA", subdiv="ON")
    shares = _unequal(rng, [0.45, 0.30, 0.15, 0.10])
    start = date(2023, 7, 3)
    days = _business_days(cal, start, date(2026, 6, 30))
    open_days = set(days)
    fridays = [date(2023, 7, 14) + timedelta(weeks=2 * k) for k in range(80)]
    paydays = {_rolled_back(f, open_days) for f in fridays if f <= days[-1]}
    month_last = {max(d for d in days if (d.year, d.month) == (y, m)) for y, m in {(d.year, d.month) for d in days}}
    pay_extra, batch_extra = rng.uniform(1.0, 1.4), rng.uniform(0.5, 0.7)
    shape = [1.1, 1.0, 1.0, 1.0, 0.9]
    series, cats = [], {}
    for d in days:
        at = datetime(d.year, d.month, d.day)
        factor = 1.0 + (pay_extra if d in paydays else 0.0) + (batch_extra if d in month_last else 0.0)
        mean = 6_000 * math.exp(0.0002 * (d - start).days) * shape[d.weekday()] * factor
        if d in paydays:
            cats[at] = "payday"
        elif d in month_last:
            cats[at] = "period_end"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    return Estate("payroll_ca_biweekly", "day", series, _index_from(series, date(2025, 7, 1)), cal, cats)


def carnival_br(seed: int) -> Estate:
    """Blind (tenth round): a Brazilian online shop's daily orders by channel, every day: a
    marketplace (the bulk), its own site, and a B2B channel of tens of orders a day (Poisson counts,
    about 40 on a weekday, few at weekends), in an order set by the seed. Carnival Monday and Tuesday
    (48 and 47 days before Easter; the `holidays` package's BR calendar lists them only as optional
    days, so the owner configures them as "Carnival", as Brazilians take them off) x0.55, B2B x0.15;
    Ash Wednesday (in no calendar: offices open at noon) x0.85. Black Friday (the Friday after the US
    Thanksgiving, configured by the owner) x3 and the week before it (Black November's early deals, in
    no calendar) x1.2; a Christmas season from 1 December rising to x1.4 on the 22nd, then falling to
    x0.8 on Christmas Eve, Christmas Day x0.4; other national holidays x0.8, B2B x0.2. Sunday the
    lightest day, Monday the busiest; 5% noise; +0.03%/day."""
    rng = random.Random(seed)
    carnival = {_easter(y) - timedelta(days=k): "Carnival" for y in range(2024, 2027) for k in (48, 47)}
    black = {d: "Black Friday" for d in _black_fridays(range(2024, 2027))}
    cal = HolidayCalendar(country="BR", dates={**carnival, **black})
    ash = {_easter(y) - timedelta(days=46) for y in range(2024, 2027)}
    black_week = {d - timedelta(days=k) for d in black for k in range(1, 8)}
    sizes = _unequal(rng, [1.0, 0.3, 0.0])
    small = sizes.index(0.0)
    shape = [1.1, 1.05, 1.0, 1.0, 1.0, 0.9, 0.8]
    b2b = [1.2, 1.15, 1.1, 1.1, 1.0, 0.25, 0.1]
    start, n = date(2024, 1, 1), 800  # to 2026-03-10: a Carnival in the history, two evaluated
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        hol = cal.name(d)
        season = 1.0
        if d.month == 12 and d.day <= 24:
            season = 1 + 0.4 * (d.day - 1) / 21 if d.day <= 22 else 1.4 - 0.3 * (d.day - 22)
        if hol == "Carnival":
            day, office = 0.55, 0.15
            cats[at] = "carnival"
        elif hol == "Black Friday":
            day, office = 3.0, 1.5
            cats[at] = "black_friday"
        elif hol:
            day, office = (0.4, 0.05) if "Christmas" in hol else (0.8, 0.2)
            cats[at] = "holiday"
        elif d in ash:
            day, office = 0.85, 0.6
            cats[at] = "carnival"
        elif d in black_week:
            day, office = 1.2, 1.05
            cats[at] = "black_week"
        else:
            day, office = 1.0, 1.0
            if season != 1.0:
                cats[at] = "season"
        level = 20_000 * math.exp(0.0003 * i) * season
        groups = [_poisson(rng, 36 * b2b[d.weekday()] * office * math.exp(0.0003 * i)) if g == small
                  else _noisy(rng, level * size * shape[d.weekday()] * day, 0.05) for g, size in enumerate(sizes)]
        series.append((at, groups))
    return Estate("carnival_br", "day", series, 400, cal, cats)


def migration_nl(seed: int) -> Estate:
    """Blind (tenth round): a Dutch public API's daily calls by client platform (five, of unequal
    size), every day: weekdays alike, Saturday x0.6, Sunday x0.5; Dutch holidays x0.65 (King's Day
    x0.8). Day 470 (2025-04-15): a partner integration goes live, +25% on every platform (a step the
    owner accepts). Day 580 (2025-08-03): clients start moving to the new API, one by one, and the
    calls here fall linearly by -50% over 28 days, then hold at half (a decline nobody accepts: the old
    API is being retired). 4% noise; +0.02%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NL")
    shares = _shares(rng)
    shape = [1.0, 1.0, 1.0, 1.0, 0.95, 0.6, 0.5]
    start, n, step_day, ramp_day, ramp_days = date(2024, 1, 1), 760, 470, 580, 28
    series, cats, shifts = [], {}, []
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        step = 1.25 if i >= step_day else 1.0
        ramp = 1 - 0.5 * min(max(i - ramp_day + 1, 0), ramp_days) / ramp_days
        mean = 80_000 * math.exp(0.0002 * i) * step * ramp * shape[d.weekday()]
        if i == step_day:
            shifts.append(at)
        hol = cal.name(d)
        if hol:
            mean *= 0.8 if "King" in hol else 0.65
            cats[at] = "holiday"
        elif ramp_day <= i < ramp_day + ramp_days + 14:
            cats[at] = "ramp"
        series.append((at, [_noisy(rng, mean * s, 0.04) for s in shares]))
    _mark_after_shift(cats, shifts, timedelta(days=1), 28)
    return Estate("migration_nl", "day", series, 400, cal, cats, shifts)


def tickets_nz_weekly(seed: int) -> Estate:
    """Blind (tenth round): a New Zealand ticketing site's sales per ISO week (a partition per Monday,
    ISO week 1 of 2023 to week 53 of 2026 and the week after), in two groups (events 70%, attractions
    30%, in an order set by the seed). The southern summer: a season peaking in mid-January (events
    x1.2, attractions x1.45, the table about x1.28) and lowest in mid-July (events x0.9, attractions
    x0.65, the table about x0.83); the week holding Christmas Day
    x0.7 (Christmas and Boxing Day closed), the one holding New Year's Day x1.15 (the summer
    holidays); the Easter weeks moving with Easter (the week holding Good Friday x1.2, the one holding
    Easter Monday x1.1: school holidays around them); other weeks with a holiday x0.95. 6% noise;
    +0.1%/week. Three years of history, the fourth (with its 53rd week) evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NZ")
    shares = _unequal(rng, [0.7, 0.3])
    attractions = shares.index(0.3)
    start, n = date(2023, 1, 2), 210
    series, cats = [], {}
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        mid = monday + timedelta(days=3)
        summer = math.cos((mid.timetuple().tm_yday - 15) / 365.25 * 2 * math.pi)
        names = {cal.name(monday + timedelta(days=k)) for k in range(7)} - {""}
        week = 1.0
        for name in names:
            week *= (1.2 if "Good Friday" in name else 1.1 if "Easter" in name else 0.7 if "Christmas" in name
                     else 1.0 if "Boxing" in name or "after New Year" in name else 1.15 if "New Year" in name else 0.95)
        if names:
            cats[at] = "holiday"
        elif mid.month in (12, 1, 2):
            cats[at] = "summer"
        if monday.isocalendar()[1] == 53:
            cats[at] = "week_53"
        mean = 40_000 * math.exp(0.001 * i) * week
        groups = [_noisy(rng, mean * s * (1.05 + (0.4 if g == attractions else 0.15) * summer), 0.06)
                  for g, s in enumerate(shares)]
        series.append((at, groups))
    return Estate("tickets_nz_weekly", "day", series, 156, cal, cats)


# The eleventh round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (three, four, three, two)


def calls_us_hourly(seed: int) -> Estate:
    """Blind (eleventh round): a US call centre's calls per hour by queue (three: billing, technical
    support, sales, 50/30/20% in an order set by the seed), in New York (America/New_York, daylight
    saving ends on 2026-11-01 inside the evaluated fortnight), points at UTC hours. Open 08:00-20:00
    local on weekdays and 09:00-14:00 on Saturdays; closed on Sundays and US federal holidays
    (Veterans Day, Wednesday 11 November, inside the evaluated fortnight; Labor Day and Columbus Day
    in the history). A closed hour holds no rows, so it has no partition (a warehouse's count per
    hour has no row for it, and a fault injected on an hour of 0 rows is the clean hour itself):
    the series has business hours only, like tickets_kolkata_hourly's. A morning peak at 10:00 and
    an afternoon one at 14:00 with a lunch dip at 12:00; Monday mornings (08:00-12:00) the busiest,
    x1.45 (technical support x1.7: the weekend's incidents), Friday afternoons x0.85; the first open
    day after a weekday holiday carries its backlog in the morning (x1.3); Saturdays x0.45, flat,
    sales x0.2 of its weekday. Poisson counts with 4% extra noise; +0.05%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    zone = "America/New_York"
    tz = ZoneInfo(zone)
    queues = _unequal(rng, [0.5, 0.3, 0.2])
    support, sales = queues.index(0.3), queues.index(0.2)

    def bump(h: float, peak: float, width: float) -> float:
        return math.exp(-((h - peak) / width) ** 2)

    def is_open(local: datetime) -> bool:
        if cal.name(local.date()) or local.weekday() == 6:
            return False
        return 9 <= local.hour < 14 if local.weekday() == 5 else 8 <= local.hour < 20

    def queue_mean(g: int, local: datetime, backlog: bool) -> float:
        h = local.hour + 0.5
        if local.weekday() == 5:
            return 0.45 * (0.8 + 0.4 * bump(h, 11, 1.5)) * (0.2 if g == sales else 1.0)
        shape = 0.35 + bump(h, 10.5, 2.2) + 0.8 * bump(h, 14.5, 2.4)
        if local.hour == 12:
            shape *= 0.9
        morning = local.hour < 12
        if local.weekday() == 0 and morning:
            shape *= 1.7 if g == support else 1.45
        elif local.weekday() == 4 and not morning:
            shape *= 0.85
        if backlog and morning:
            shape *= 1.3
        return shape

    start, days = datetime(2026, 6, 1, 4), 166  # 2026-06-01 00:00 EDT to 2026-11-13 (a Friday) local
    dst_change = datetime(2026, 11, 1, 6)  # 02:00 EDT = 06:00 UTC
    series, cats = [], {}
    for i in range(24 * days + 1):  # one hour more: the 25-hour local day on 1 November
        at = start + timedelta(hours=i)
        local = _local_hour(at, tz)
        if local.date() > date(2026, 11, 13) or not is_open(local):
            continue
        yesterday = local.date() - timedelta(days=1)
        backlog = bool(cal.name(yesterday)) and yesterday.weekday() < 5
        level = 420 * math.exp(0.0005 * i / 24)
        groups = [_poisson(rng, level * share * queue_mean(g, local, backlog) * math.exp(rng.gauss(0, 0.04)))
                  for g, share in enumerate(queues)]
        if backlog:
            cats[at] = "after_holiday"
        elif dst_change <= at < dst_change + timedelta(days=7):
            cats[at] = "after_dst"
        series.append((at, groups))
    first = next(k for k, (at, _) in enumerate(series) if at >= datetime(2026, 10, 31, 4))  # 31 October local
    return Estate("calls_us_hourly", "hour", series, first, cal, cats, timezone=zone)


def ledger_nz_monthly(seed: int) -> Estate:
    """Blind (eleventh round): a New Zealand group's monthly GL exports by entity (four: 40/30/20/10%
    in an order set by the seed), one partition a month dated on the month's last day, five fiscal
    years from April 2021 to March 2026. The fiscal year ends on 31 March (configured by the owner,
    `fiscal_year_end: 3`): March's year-end close x1.7 (x1.6-1.8 per entity and seed), the quarter
    closes of June, September and December x1.3 (x1.25-1.35), April (the new year's first month:
    audit adjustments, reversals) x1.12. +1%/month; 4% noise, 7% on the smallest entity. The last two
    fiscal years are evaluated (two March closes, three in the history)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NZ", fiscal_year_end=3)
    entities = _unequal(rng, [0.4, 0.3, 0.2, 0.1])
    year_lift = [rng.uniform(1.6, 1.8) for _ in entities]
    quarter_lift = [rng.uniform(1.25, 1.35) for _ in entities]
    series, cats = [], {}
    for i, d in enumerate(_month_ends(date(2021, 4, 1), 60)):
        at = datetime(d.year, d.month, d.day)
        level = 150_000 * 1.01 ** i
        groups = []
        for g, share in enumerate(entities):
            lift = (year_lift[g] if d.month == 3 else quarter_lift[g] if d.month in (6, 9, 12)
                    else 1.12 if d.month == 4 else 1.0)
            groups.append(_noisy(rng, level * share * lift, 0.07 if share == 0.1 else 0.04))
        if d.month == 3:
            cats[at] = "year_end"
        elif d.month in (6, 9, 12):
            cats[at] = "period_end"
        elif d.month == 4:
            cats[at] = "period_start"
        series.append((at, groups))
    return Estate("ledger_nz_monthly", "day", series, 36, cal, cats)


def orders_cairo(seed: int) -> Estate:
    """Blind (eleventh round; the brief's "orders_eg", a name the seventh round's estate holds): a
    Cairo online retailer's daily orders by category (three: fashion 45%, electronics 35%, grocery
    20%, in an order set by the seed), every day, on the `holidays` package's Egyptian calendar: a
    Friday/Saturday weekend (Friday x0.7, Saturday x0.9, Sunday x1.05, Thursday x1.1). Ramadan (in
    no calendar: from its first day, a fixed table, to the day before the calendar's first Eid
    al-Fitr day, 29 or 30 days, 11 days earlier each year) lower by day, people fasting: fashion x0.75
    and electronics x0.8 its first twenty days, grocery x1.05 (iftar), fashion back to x1.0 in its
    last ten (clothes for Eid): the table about x0.83 then x0.94. Eid al-Fitr x0.5 for three days
    from its first (the calendar lists two, the third in no calendar). The seven days before the Day
    of Arafah a shopping week (fashion and grocery x1.4, electronics x1.05: the table about x1.27),
    declared by the owner as a season (`holidays.seasons`); Eid al-Adha days x0.6, other holidays
    (observed days included) x0.85. 5% noise; +0.03%/day. Ramadan 2024 and an Eid al-Adha in the
    history; Ramadan 2025 and 2026 and Eid al-Adha 2025 evaluated."""
    rng = random.Random(seed)
    probe = HolidayCalendar(country="EG")
    years = range(2024, 2027)
    arafah = [min(d for d in _holiday_days(probe, y) if "Arafah" in probe.name(d)) for y in years]
    shopping = [(a - timedelta(days=7), a - timedelta(days=1)) for a in arafah]
    cal = HolidayCalendar(country="EG", seasons={"Eid al-Adha shopping": shopping})
    categories = _unequal(rng, [0.45, 0.35, 0.20])
    fashion, grocery = categories.index(0.45), categories.index(0.20)
    eid_firsts = [min(d for d in _holiday_days(cal, y) if cal.name(d).startswith("Eid al-Fitr")) for y in years]
    ramadan: dict[date, bool] = {}  # day -> in its last ten days
    eid_fitr: set[date] = set()
    for first, eid in zip(_RAMADAN_STARTS, eid_firsts):
        length = (eid - first).days
        ramadan.update({first + timedelta(days=k): k >= length - 10 for k in range(length)})
        eid_fitr.update(eid + timedelta(days=k) for k in range(3))
    week = {first + timedelta(days=k) for first, last in shopping for k in range((last - first).days + 1)}
    shape = [1.0, 1.0, 1.0, 1.1, 0.7, 0.9, 1.05]
    start, n = date(2023, 11, 1), 880  # to 2026-03-29: past Eid al-Fitr 2026
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        hol = cal.name(d)
        factors = [1.0, 1.0, 1.0]
        if d in eid_fitr:
            factors = [0.5, 0.5, 0.5]
            cats[at] = "holiday"
        elif hol:
            day = 0.6 if hol.startswith("Eid al-Adha") else 0.85
            factors = [day, day, day]
            cats[at] = "holiday"
        elif d in ramadan:
            factors = [(1.0 if ramadan[d] else 0.75) if g == fashion else 1.05 if g == grocery else 0.8
                       for g in range(3)]
            cats[at] = "ramadan"
        elif d in week:
            factors = [1.4 if g in (fashion, grocery) else 1.05 for g in range(3)]
            cats[at] = "eid_shopping"
        level = 22_000 * math.exp(0.0003 * i) * shape[d.weekday()]
        series.append((at, [_noisy(rng, level * share * f, 0.05) for share, f in zip(categories, factors)]))
    return Estate("orders_cairo", "day", series, 400, cal, cats)


def rentals_es(seed: int) -> Estate:
    """Blind (eleventh round): a Spanish holiday-rental platform's daily bookings by kind of stay
    (two: coast 65%, city 35%, in an order set by the seed), every day. The weekday shape flips in
    summer: from 1 July to 31 August people book at weekends, on their phones, for the next trip
    (Friday x1.05, Saturday x1.35, Sunday x1.3, Monday-Thursday x0.8-0.85); the rest of the year
    they book on weekdays, from work (Monday x1.15 falling to Friday x0.95, Saturday x0.8, Sunday
    x0.9). August x1.6 (coast x1.9, city x1.05: last-minute beach stays). Spanish national holidays
    x1.15 (a long weekend's free time), Christmas Day and New Year's Day x0.5. 5% noise;
    +0.03%/day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ES")
    kinds = _unequal(rng, [0.65, 0.35])
    coast = kinds.index(0.65)
    summer_shape = [0.85, 0.8, 0.8, 0.85, 1.05, 1.35, 1.3]
    rest_shape = [1.15, 1.1, 1.05, 1.05, 0.95, 0.8, 0.9]
    start, n = date(2024, 1, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        summer = d.month in (7, 8)
        mean = 9_000 * math.exp(0.0003 * i) * (summer_shape if summer else rest_shape)[d.weekday()]
        hol = cal.name(d)
        if hol:
            mean *= 0.5 if "Christmas" in hol or "New Year" in hol else 1.15
            cats[at] = "holiday"
        elif summer:
            cats[at] = "summer"
        august = [(1.9 if g == coast else 1.05) if d.month == 8 else 1.0 for g in range(len(kinds))]
        series.append((at, [_noisy(rng, mean * share * a, 0.05) for share, a in zip(kinds, august)]))
    return Estate("rentals_es", "day", series, 400, cal, cats)


# The twelfth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (two, three, four, six)


def deliveries_adelaide_hourly(seed: int) -> Estate:
    """Blind (twelfth round): an Adelaide food-delivery app's orders per hour by kind (two: restaurant
    meals 80%, convenience (grocery, pharmacy, open all night) 20%, in an order set by the seed), every
    hour, 24/7, in a half-hour zone with daylight saving (Australia/Adelaide: UTC+9:30, +10:30 from
    02:00 on Sunday 4 October 2026, inside the evaluated fortnight), so every point is on :30 UTC. The
    night (00:00-06:00 local) holds a few orders an hour (Poisson counts, about 2 to 30 a kind), the
    dinner peak hundreds. Lunch (12:00) and dinner (18:00) peaks; Friday and
    Saturday dinners x1.3, weekend lunches x1.25, Sunday dinner x1.15, Monday and Tuesday dinners x0.9;
    the nights after Friday and Saturday (00:00-03:00 on Saturday and Sunday) x1.8. South Australia's
    Labour Day (Monday 5 October, the day after the change) is ordered like a Sunday (its small hours a
    long weekend's night out); convenience moves a third as much as meals with the day. Poisson counts
    with 5% extra noise per hour; +0.1%/day. The local days 1-14 October evaluated, 30 days of history."""
    rng = random.Random(seed)
    zone = "Australia/Adelaide"
    cal = HolidayCalendar(country="AU", subdiv="SA")
    tz = ZoneInfo(zone)
    kinds = _unequal(rng, [0.8, 0.2])
    meals = kinds.index(0.8)
    # orders per local hour against the kind's evening peak
    meal_hours = [0.025, 0.012, 0.008, 0.006, 0.006, 0.012, 0.05, 0.12, 0.16, 0.18, 0.28, 0.55,
                  0.9, 0.75, 0.38, 0.3, 0.45, 0.82, 1.0, 0.9, 0.6, 0.38, 0.2, 0.08]
    shop_hours = [0.06, 0.04, 0.03, 0.03, 0.03, 0.06, 0.22, 0.42, 0.62, 0.78, 0.88, 0.95,
                  0.95, 0.9, 0.85, 0.85, 0.95, 1.0, 0.95, 0.85, 0.7, 0.5, 0.3, 0.15]
    peak = [600.0 / 0.8, 150.0 / 0.2]  # per unit share: meals peak near 600 an hour, convenience near 150

    def day_factor(local: datetime, holiday: bool) -> float:
        weekday = 6 if holiday else local.weekday()
        h = local.hour
        if h < 3 and weekday in (5, 6):  # the night after a Friday or a Saturday out
            return 1.8
        if 11 <= h < 15 and weekday in (5, 6):
            return 1.25
        if 17 <= h < 22:
            return {0: 0.9, 1: 0.9, 4: 1.3, 5: 1.3, 6: 1.15}.get(weekday, 1.0)
        return 1.0

    start, end = datetime(2026, 8, 31, 14, 30), datetime(2026, 10, 14, 12, 30)  # local 1 Sep 00:00 to 14 Oct 23:00
    dst_change = datetime(2026, 10, 3, 16, 30)  # 02:00 ACST = 16:30 UTC
    series, cats = [], {}
    at = start
    while at <= end:
        local = _local_hour(at, tz)
        holiday = bool(cal.name(local.date()))
        growth = math.exp(0.001 * (at - start).total_seconds() / 86_400)
        factor = day_factor(local, holiday)
        groups = []
        for g, share in enumerate(kinds):
            shape = (meal_hours if g == meals else shop_hours)[local.hour]
            lam = peak[g] * share * shape * growth * (factor if g == meals else 1 + (factor - 1) / 3)
            groups.append(_poisson(rng, lam * math.exp(rng.gauss(0, 0.05))))
        if holiday:
            cats[at] = "holiday"
        elif local.hour < 6:
            cats[at] = "night"
        elif dst_change <= at < dst_change + timedelta(days=7):
            cats[at] = "after_dst"
        series.append((at, groups))
        at += timedelta(hours=1)
    first = next(k for k, (at, _) in enumerate(series) if at >= datetime(2026, 9, 30, 14, 30))  # 1 October local
    return Estate("deliveries_adelaide_hourly", "hour", series, first, cal, cats, timezone=zone)


# Dutch school holidays by region (approximately the published schedules): each break from its first
# Saturday to its last Sunday. Christmas and the May break are national; spring, summer and autumn rotate
_NL_CHRISTMAS = [(date(2022, 12, 24), date(2023, 1, 8)), (date(2023, 12, 23), date(2024, 1, 7)),
                 (date(2024, 12, 21), date(2025, 1, 5)), (date(2025, 12, 20), date(2026, 1, 4)),
                 (date(2026, 12, 19), date(2027, 1, 3))]
_NL_MAY = [(date(2023, 4, 22), date(2023, 4, 30)), (date(2024, 4, 27), date(2024, 5, 5)),
           (date(2025, 4, 26), date(2025, 5, 4)), (date(2026, 4, 25), date(2026, 5, 3))]
_NL_REGIONS: dict[str, dict[str, list[tuple[date, date]]]] = {
    "noord": {
        "spring": [(date(2023, 2, 25), date(2023, 3, 5)), (date(2024, 2, 17), date(2024, 2, 25)),
                   (date(2025, 2, 15), date(2025, 2, 23)), (date(2026, 2, 14), date(2026, 2, 22))],
        "summer": [(date(2023, 7, 15), date(2023, 8, 27)), (date(2024, 7, 20), date(2024, 9, 1)),
                   (date(2025, 7, 12), date(2025, 8, 24)), (date(2026, 7, 4), date(2026, 8, 16))],
        "autumn": [(date(2023, 10, 21), date(2023, 10, 29)), (date(2024, 10, 19), date(2024, 10, 27)),
                   (date(2025, 10, 18), date(2025, 10, 26)), (date(2026, 10, 17), date(2026, 10, 25))],
    },
    "midden": {
        "spring": [(date(2023, 2, 25), date(2023, 3, 5)), (date(2024, 2, 17), date(2024, 2, 25)),
                   (date(2025, 2, 22), date(2025, 3, 2)), (date(2026, 2, 21), date(2026, 3, 1))],
        "summer": [(date(2023, 7, 22), date(2023, 9, 3)), (date(2024, 7, 13), date(2024, 8, 25)),
                   (date(2025, 7, 19), date(2025, 8, 31)), (date(2026, 7, 18), date(2026, 8, 30))],
        "autumn": [(date(2023, 10, 14), date(2023, 10, 22)), (date(2024, 10, 26), date(2024, 11, 3)),
                   (date(2025, 10, 18), date(2025, 10, 26)), (date(2026, 10, 10), date(2026, 10, 18))],
    },
    "zuid": {
        "spring": [(date(2023, 2, 18), date(2023, 2, 26)), (date(2024, 2, 10), date(2024, 2, 18)),
                   (date(2025, 2, 22), date(2025, 3, 2)), (date(2026, 2, 14), date(2026, 2, 22))],
        "summer": [(date(2023, 7, 8), date(2023, 8, 20)), (date(2024, 7, 6), date(2024, 8, 18)),
                   (date(2025, 7, 5), date(2025, 8, 17)), (date(2026, 7, 11), date(2026, 8, 23))],
        "autumn": [(date(2023, 10, 14), date(2023, 10, 22)), (date(2024, 10, 19), date(2024, 10, 27)),
                   (date(2025, 10, 11), date(2025, 10, 19)), (date(2026, 10, 17), date(2026, 10, 25))],
    },
}


def lessons_nl_weekly(seed: int) -> Estate:
    """Blind (twelfth round): a Dutch digital-learning platform's completed lessons per ISO week (dated
    on the Monday) by school region (three: noord, midden, zuid, 42/33/25% in an order set by the seed).
    Pupils work on school days; each region's school holidays (a table, in no calendar: the regions'
    spring, summer and autumn breaks rotate, so the table's total dips part-way for eight weeks each
    summer while one region after another is away) at x0.08 a day, national breaks (Christmas, May)
    the same. A school day's weight 1, a weekend day's 0.15; a weekday public holiday in term (Easter
    Monday, Ascension Day, Whit Monday, King's Day, Good Friday) 0.1 and the Friday after Ascension
    Day (a bridge day most schools close) 0.4. A region's first school week after its summer x0.8
    (classes and accounts set up), and its level +5% from then on (schools signing up for the new
    school year). 4% noise per region and week. ISO weeks 2023-W01 to 2026-W52: three years of history,
    2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NL")
    regions = list(_NL_REGIONS)
    shares = _unequal(rng, [0.42, 0.33, 0.25])

    def spans(region: str) -> dict[str, list[tuple[date, date]]]:
        own = _NL_REGIONS[region]
        return {"vacation": _NL_CHRISTMAS + _NL_MAY + own["spring"] + own["autumn"], "summer": own["summer"]}

    def within(day: date, ranges: list[tuple[date, date]]) -> bool:
        return any(a <= day <= b for a, b in ranges)

    ascension_fridays = {d + timedelta(days=1) for y in range(2023, 2027) for d in _holiday_days(cal, y)
                         if "Ascension" in cal.name(d)}

    def day_weight(region: str, day: date) -> tuple[float, str]:
        breaks = spans(region)
        if within(day, breaks["summer"]):
            return 0.08, "summer"
        if within(day, breaks["vacation"]):
            return 0.08, "vacation"
        if day.weekday() >= 5:
            return 0.15, ""
        if cal.name(day):
            return 0.1, "holiday"
        if day in ascension_fridays:
            return 0.4, "holiday"
        return 1.0, ""

    first_monday, weeks = date(2023, 1, 2), 208
    series, cats = [], {}
    for i in range(weeks):
        monday = first_monday + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        level = 60_000 * math.exp(0.0005 * i)
        kinds: set[str] = set()
        groups = []
        for region, share in zip(regions, shares):
            days = [monday + timedelta(days=k) for k in range(7)]
            weighted = [day_weight(region, d) for d in days]
            kinds |= {kind for d, (_, kind) in zip(days, weighted) if kind and d.weekday() < 5}  # by its school days
            summers = _NL_REGIONS[region]["summer"]
            years_in = sum(last < monday for _, last in summers)  # school years begun since the first summer
            back = any(last < monday <= last + timedelta(days=7) for _, last in summers)
            if back:
                kinds.add("after_summer")
            mean = level * share * 1.05 ** years_in * sum(w for w, _ in weighted) / 5.3 * (0.8 if back else 1.0)
            groups.append(_noisy(rng, mean, 0.04))
        for kind in ("summer", "vacation", "after_summer", "holiday"):
            if kind in kinds:
                cats[at] = kind
                break
        series.append((at, groups))
    # the owner declares each region's school breaks (published years ahead) as that group's
    # `group_holidays` breaks, and for the table every region's, named by region, with the national
    # ones (Christmas, May)
    national = {"Christmas break": _NL_CHRISTMAS, "May break": _NL_MAY}
    own = {r: {f"{kind.capitalize()} break": spans for kind, spans in _NL_REGIONS[r].items()} for r in regions}
    table = {**national, **{f"{r} {name}": spans for r in regions for name, spans in own[r].items()}}
    return Estate("lessons_nl_weekly", "day", series, 156, HolidayCalendar(country="NL", breaks=table), cats,
                  group_calendars=[HolidayCalendar(country="NL", breaks={**national, **own[r]}) for r in regions])


def filings_gb(seed: int) -> Estate:
    """Blind (twelfth round): a UK tax-software vendor's self-assessment returns filed online per day
    by filer (four: individuals 45%, agents (accountants filing for clients) 35%, partnerships 12%,
    trusts 8%, in an order set by the seed), every day, England's bank holidays. The 31 January deadline
    each year (any weekday: a Wednesday, a Friday, then a Saturday) ends a run-up of weeks: individuals
    leave it late (x(1 + 11 e^(-k/5)) k days before: x12 on the day, x3.7 a week before), agents and
    partnerships file earlier and steadier (x(1 + 4 e^(-k/14)), x(1 + 4 e^(-k/12))), trusts x(1 + 3
    e^(-k/20)); late filers trail into February (individuals x(1 + 2.5 e^(-(j-1)/2.5)) j days after).
    February-March x0.5 (the year's filing done), the new tax year from 6 April brings early filers
    (x1.8 falling to x1 over three weeks), May-September x0.8, October x0.9, December x1.1. Individuals
    file on Sundays (x1.15) and bank holidays (x1.1); agents and partnerships on weekdays (Saturday
    x0.15, Sunday x0.05, bank holidays x0.1) except in the deadline's last week (weekends x0.6);
    individuals' Saturdays x0.85. Christmas
    Day x0.15, Boxing Day x0.4. The owner declares the deadline (`dates`) and the run-up (a season,
    15 December to 30 January). 6% noise; +0.02%/day. One deadline in the history, two evaluated."""
    rng = random.Random(seed)
    years = range(2023, 2028)
    deadlines = [date(y, 1, 31) for y in years]
    runups = [(date(y - 1, 12, 15), date(y, 1, 30)) for y in years]
    cal = HolidayCalendar(country="GB", subdiv="ENG", dates={d: "Self Assessment deadline" for d in deadlines},
                          seasons={"Self Assessment run-up": runups})
    filers = _unequal(rng, [0.45, 0.35, 0.12, 0.08])
    individuals = filers.index(0.45)
    runup_scale = {0.45: (11.0, 5.0), 0.35: (4.0, 14.0), 0.12: (4.0, 12.0), 0.08: (3.0, 20.0)}
    month_factor = {2: 0.5, 3: 0.5, 4: 1.0, 5: 0.8, 6: 0.8, 7: 0.8, 8: 0.8, 9: 0.8, 10: 0.9, 11: 1.0, 12: 1.1, 1: 1.0}

    def factor(g: int, d: date) -> float:
        share = filers[g]
        to_deadline = (date(d.year, 1, 31) - d).days if d.month == 1 else (date(d.year + 1, 1, 31) - d).days
        after = (d - date(d.year, 1, 31)).days
        f = month_factor[d.month]
        lift, scale = runup_scale[share]
        if to_deadline <= 60:
            f = max(f, 1.0) * (1 + lift * math.exp(-to_deadline / scale))
        elif 1 <= after <= 28:
            f = 0.5 * (1 + (2.5 if g == individuals else 0.8) * math.exp(-(after - 1) / (2.5 if g == individuals else 3)))
        new_year = (d - date(d.year, 4, 6)).days
        if 0 <= new_year < 21:
            f *= 1.8 - 0.8 * new_year / 20
        hol = cal.name(d)
        if g == individuals:
            f *= 1.15 if d.weekday() == 6 else 0.85 if d.weekday() == 5 else 1.0
            if hol and "deadline" not in hol:
                f *= 0.15 if "Christmas" in hol else 0.4 if "Boxing" in hol else 1.1
        else:
            weekend = {5: 0.15, 6: 0.05}.get(d.weekday(), 1.0)
            f *= max(weekend, 0.6) if to_deadline < 7 else weekend
            if hol and "deadline" not in hol:
                f *= 0.1 if d.weekday() < 5 else 1.0
        return f

    start, n = date(2023, 11, 1), 880  # to 2026-03-29: past the 2026 deadline's February tail
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        level = 14_000 * math.exp(0.0002 * i)
        series.append((at, [_noisy(rng, level * share * factor(g, d), 0.06) for g, share in enumerate(filers)]))
        after = (d - date(d.year, 1, 31)).days
        if d in deadlines:
            cats[at] = "deadline"
        elif cal.name(d):
            cats[at] = "holiday"
        elif any(first <= d <= last for first, last in runups):
            cats[at] = "runup"
        elif 1 <= after <= 14:
            cats[at] = "after_deadline"
        elif 0 <= (d - date(d.year, 4, 6)).days < 21:
            cats[at] = "new_tax_year"
    return Estate("filings_gb", "day", series, 400, cal, cats)


def transfers_jp(seed: int) -> Estate:
    """Blind (twelfth round): a Japanese bank's corporate transfers per business day by kind (six:
    suppliers 35%, salaries 20%, card and utility debits 15%, other 12%, taxes and social insurance
    10%, loan repayments 8%, in an order set by the seed), on business days only: no weekend, no
    Japanese holiday, no bank holiday (31 December to 3 January, declared by the owner in `dates`).
    Japan settles on the gotobi days (the 5th, 10th, 15th, 20th, 25th and the month's last day, each
    rolled back to the business day before when closed): suppliers x1.5 and other x1.2 on each, suppliers
    x2.2 and loans x2.5 on the month's last business day; salaries paid on the 25th (declared by the
    owner: `rolled_days` (25, "preceding")) x6, their files x2.5 the business day before, x2 at the
    month's end; taxes due on the 10th rolled forward (x3) and social insurance at the month's end
    (x2.5); card and utility debits on the 27th rolled forward (x3). The year-end rush (28-30
    December) x1.4, the first business day of the year x0.6, Golden Week's business days x0.75 and the
    one after it x1.3 (the backlog), Obon (13-16 August, in no calendar) x0.7 (taxes x1), the fiscal
    year's close (March's last business day) x1.3 on top. Noise autocorrelated: a table-wide AR(1)
    on the log (0.8 from day to day, innovations 2.5%: about 4% stationary, good weeks and bad weeks)
    times 3% independent noise per kind; +0.02%/business day. April 2023 to March 2026."""
    rng = random.Random(seed)
    years = range(2023, 2027)
    closed = {date(y, 12, 31): "Bank holiday" for y in years} | {date(y, 1, k): "Bank holiday" for y in years
                                                                  for k in (2, 3)}
    cal = HolidayCalendar(country="JP", dates=closed, rolled_days=((25, "preceding"),))
    kinds = _unequal(rng, [0.35, 0.20, 0.15, 0.12, 0.10, 0.08])
    suppliers, salaries, debits, other, taxes, loans = (kinds.index(s) for s in (0.35, 0.20, 0.15, 0.12, 0.10, 0.08))
    days = _business_days(cal, date(2023, 4, 3), date(2026, 3, 31))
    open_days = set(days)

    def forward(day: date) -> date:
        while day not in open_days:
            day += timedelta(days=1)
        return day

    months = sorted({(d.year, d.month) for d in days})
    month_ends, paydays, pre_paydays, gotobi, tax_days, debit_days = set(), set(), set(), set(), set(), set()
    for y, m in months:
        last = date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)
        month_ends.add(_rolled_back(last, open_days))
        payday = _rolled_back(date(y, m, 25), open_days)
        paydays.add(payday)
        pre_paydays.add(max(d for d in days if d < payday) if payday > days[0] else payday)
        gotobi |= {_rolled_back(date(y, m, k), open_days) for k in (5, 10, 15, 20, 25) if date(y, m, k) >= days[0]}
        tax_days.add(forward(date(y, m, 10)))
        if date(y, m, 27) <= days[-1]:
            debit_days.add(forward(date(y, m, 27)))
    golden = {d for d in days if (d.month, d.day) >= (4, 27) and (d.month, d.day) <= (5, 6)}
    after_golden = {min(d for d in days if d > date(y, 5, 6)) for y in years if date(y, 5, 6) < days[-1]}
    obon = {d for d in days if d.month == 8 and 13 <= d.day <= 16}
    year_firsts = {min(d for d in days if d.year == y) for y in years if days[0] < date(y, 1, 1) < days[-1]}

    series, cats = [], {}
    ar = 0.0
    for i, d in enumerate(days):
        at = datetime(d.year, d.month, d.day)
        f = [1.0] * 6
        if d in gotobi:
            f[suppliers] *= 1.5
            f[other] *= 1.2
        if d in month_ends:
            f[suppliers] *= 2.2
            f[loans] *= 2.5
            f[salaries] *= 2.0
            f[taxes] *= 2.5
        f[salaries] *= 6.0 if d in paydays else 2.5 if d in pre_paydays else 1.0
        if d in tax_days:
            f[taxes] *= 3.0
        if d in debit_days:
            f[debits] *= 3.0
        season = 1.0
        if d.month == 12 and d.day >= 28:
            season = 1.4
        elif d in year_firsts:
            season = 0.6
        elif d in golden:
            season = 0.75
        elif d in after_golden:
            season = 1.3
        elif d in obon:
            season = 0.7
        if d.month == 3 and d in month_ends:
            season *= 1.3
        ar = 0.8 * ar + rng.gauss(0, 0.025)
        level = 300_000 * math.exp(0.0002 * i + ar)
        groups = []
        for g, share in enumerate(kinds):
            lift = 1.0 if (g == taxes and d in obon) else season
            groups.append(_noisy(rng, level * share * f[g] * lift, 0.03))
        series.append((at, groups))
        for kind, where in (("year_turn", year_firsts | {x for x in days if x.month == 12 and x.day >= 28}),
                            ("golden_week", golden | after_golden), ("obon", obon),
                            ("payday", paydays | pre_paydays), ("period_end", month_ends), ("gotobi", gotobi),
                            ("due_day", tax_days | debit_days)):
            if d in where:
                cats[at] = kind
                break
    return Estate("transfers_jp", "day", series, 400, cal, cats)


def registrations_kathmandu_hourly(seed: int) -> Estate:
    """Blind (thirteenth round): a Kathmandu hospital group's outpatient registrations per hour by hospital
    (three: 50/30/20%, in an order set by the seed), in a zone 45 minutes off the hour (Asia/Kathmandu,
    UTC+5:45, no daylight saving), so every point is on :15 UTC. The registration desks open 07:00-13:00
    and 14:00-17:00 local, Sunday to Thursday, closed for lunch 13:00-14:00 (no rows: no partition, a
    gap in the middle of each day), Friday 07:00-13:00 only; closed on Saturday (Nepal's one weekly
    holiday) and Nepali public holidays (no partitions). Patients queue before the desks open: 07:00 the
    busiest hour, then falling to the afternoon's few. Sunday (after the weekly holiday) x1.2, Friday
    x0.9. A run of four or more closed days (Dashain, Tihar) empties the city: its two open days before
    x0.8 (patients travelling home), and the first open day after any closure but a Saturday x1.35 (the
    backlog). Poisson counts with 6% extra noise per hour. The local days 1-14 November 2026 evaluated
    (Tihar's closure, 7-11 November, inside it); history from 12 July (Dashain in it)."""
    rng = random.Random(seed)
    zone = "Asia/Kathmandu"
    cal = HolidayCalendar(country="NP")
    tz = ZoneInfo(zone)
    hospitals = _unequal(rng, [0.5, 0.3, 0.2])
    # registrations per local hour against the 07:00 queue at the doors (13:00 is the lunch closure)
    hour_shape = {7: 1.0, 8: 0.95, 9: 0.8, 10: 0.65, 11: 0.5, 12: 0.35, 14: 0.45, 15: 0.3, 16: 0.15}
    peak = 420.0  # the group's registrations at 07:00 on an ordinary weekday
    first_day, last_day = date(2026, 7, 12), date(2026, 11, 14)
    days = [first_day + timedelta(days=k) for k in range((last_day - first_day).days + 1)]
    closed = {d for d in days if d.weekday() == 5 or cal.name(d)}
    open_days = [d for d in days if d not in closed]
    runs: list[list[date]] = []  # consecutive closed days
    for d in sorted(closed):
        if runs and runs[-1][-1] == d - timedelta(days=1):
            runs[-1].append(d)
        else:
            runs.append([d])
    eves = {d for run in runs if len(run) >= 4 for d in [o for o in open_days if o < run[0]][-2:]}
    after = {min(o for o in open_days if o > run[-1]) for run in runs
             if any(cal.name(d) for d in run) and run[-1] < open_days[-1]}
    series, cats = [], {}
    for d in open_days:
        factor = 1.2 if d.weekday() == 6 else 0.9 if d.weekday() == 4 else 1.0
        factor *= 0.8 if d in eves else 1.35 if d in after else 1.0
        hours = [h for h in hour_shape if h < 13] if d.weekday() == 4 else list(hour_shape)
        for h in hours:
            at = _utc_hour(datetime(d.year, d.month, d.day, h), tz)
            lam = peak * hour_shape[h] * factor
            series.append((at, [_poisson(rng, lam * share * math.exp(rng.gauss(0, 0.06))) for share in hospitals]))
            if d in after:
                cats[at] = "after_holiday"
            elif d in eves:
                cats[at] = "festival_eve"
    tail = _utc_hour(datetime(2026, 11, 1), tz)
    first = next(k for k, (at, _) in enumerate(series) if at >= tail)
    return Estate("registrations_kathmandu_hourly", "hour", series, first, cal, cats, timezone=zone)


def _year_end_sunday(year: int) -> date:
    """The Sunday nearest 31 March: a 52-53 week retail year's end (a 53rd week every five or six years)."""
    march31 = date(year, 3, 31)
    return march31 + timedelta(days=(6 - march31.weekday() + 3) % 7 - 3)


# football tournaments (the pubs' screens): Euro 2024 and the 2026 World Cup, in no calendar
_TOURNAMENTS = [(date(2024, 6, 14), date(2024, 7, 14)), (date(2026, 6, 11), date(2026, 7, 19))]


def takings_gb_fourweekly(seed: int) -> Estate:
    """Blind (thirteenth round): a British pub company's till transactions per fiscal period by estate
    (two: managed pubs 70%, franchised 30%, in an order set by the seed), on a 13-period calendar: a
    52-53 week year ending on the Sunday nearest 31 March, thirteen periods of four weeks, each point
    the period's sum dated on its closing Sunday; the year to 2 April 2028 holds 53 weeks, so its
    13th period holds five (x1.25 the rows by construction). Days: Friday x1.45, Saturday x1.6, Monday
    x0.7; dry January x0.82, summer x1.1, December x1.25 and its week before Christmas x1.3 more,
    Christmas Day x0.55, New Year's Eve x1.6, England's bank holidays x1.3 (and the Sundays before
    bank holiday Mondays x1.25), Euro 2024 and the 2026 World Cup x1.1 (in no calendar).
    Franchised locals move with the season at 0.6 of the managed pubs' amplitude. Noise: 2.5% per
    estate and period, summer periods a further 3% shared (the weather); +2%/year. Three years of
    periods (from April 2023) read, two years (26 periods, two Easters, two Christmases) evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    estates = _unequal(rng, [0.7, 0.3])
    managed = estates.index(0.7)
    weekday = [0.7, 0.75, 0.85, 1.0, 1.45, 1.6, 1.1]
    month = {1: 0.82, 2: 0.9, 3: 0.95, 4: 1.0, 5: 1.05, 6: 1.1, 7: 1.12, 8: 1.1, 9: 1.0, 10: 0.98, 11: 1.0, 12: 1.25}

    def day_factor(d: date) -> float:
        f = weekday[d.weekday()] * month[d.month]
        hol = cal.name(d)
        if (d.month, d.day) == (12, 25):
            f *= 0.55 / 1.25
        elif (d.month, d.day) == (12, 31):
            f *= 1.6
        elif hol:
            f *= 1.3
        elif cal.name(d + timedelta(days=1)) and d.weekday() == 6:
            f *= 1.25
        if d.month == 12 and 18 <= d.day <= 24:
            f *= 1.3
        if any(a <= d <= b for a, b in _TOURNAMENTS):
            f *= 1.1
        return f

    ends = [_year_end_sunday(y) for y in range(2023, 2029)]  # 2 April 2023 to 2 April 2028
    periods: list[tuple[date, date]] = []
    for prev, end in pairwise(ends):
        start = prev + timedelta(days=1)
        for p in range(13):
            last = end if p == 12 else start + timedelta(days=27)
            periods.append((start, last))
            start = last + timedelta(days=1)
    series, cats = [], {}
    for i, (first, last) in enumerate(periods):
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        at = datetime(last.year, last.month, last.day)
        weather = math.exp(rng.gauss(0, 0.03)) if 6 <= last.month <= 8 else 1.0
        level = 1_900_000 / 28 * math.exp(math.log(1.02) * i / 13) * weather
        groups = []
        for g, share in enumerate(estates):
            amplitude = 1.0 if g == managed else 0.6
            total = sum(day_factor(d) ** amplitude for d in days)
            groups.append(_noisy(rng, level * share * total, 0.025))
        series.append((at, groups))
        names = {cal.name(d) for d in days}
        if len(days) > 28:
            cats[at] = "long_period"
        elif any((d.month, d.day) == (12, 25) for d in days):
            cats[at] = "christmas"
        elif {"Good Friday", "Easter Monday"} & names:
            cats[at] = "easter"
        elif any(a <= d <= b for a, b in _TOURNAMENTS for d in days):
            cats[at] = "tournament"
    return Estate("takings_gb_fourweekly", "day", series, 39, cal, cats)


# Lunar New Year's Day and the Mid-Autumn Festival (the 15th of the eighth lunar month), as China's
# calendar dates them; a grocer in Canada finds them in no calendar of its own
_LUNAR_NEW_YEAR = [date(2024, 2, 10), date(2025, 1, 29), date(2026, 2, 17)]
_MID_AUTUMN = [date(2024, 9, 17), date(2025, 10, 6), date(2026, 9, 25)]


def grocer_toronto(seed: int) -> Estate:
    """Blind (thirteenth round): a Toronto Asian supermarket chain's till transactions per day by store
    (four: two suburban stores 35% and 30%, Scarborough 20%, downtown 15%, in an order set by the seed),
    every day, Ontario's holidays (Christmas Day x0.35, New Year's Day x0.6, others x0.85; downtown,
    among offices, x0.5 on every holiday). The suburban stores are busiest at the weekend (Saturday
    x1.45, Scarborough x1.3), downtown on weekdays (Sunday x0.65). Lunar New Year and the Mid-Autumn Festival move
    with the moon and are in no calendar: the ten days before Lunar New Year rise to x1.9 on its eve
    (downtown half as much), the day itself x0.8 and the three after x0.7; the two weeks before the
    Mid-Autumn Festival (mooncakes) rise to x1.35, the day x1.1. One freezing-rain day in the history
    (5 March 2025, in no calendar) x0.3 and the day after x1.1. 4% noise per store; +0.01%/day.
    June 2024 to June 2026: Lunar New Year 2025 in the history, 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CA", subdiv="ON")
    stores = _unequal(rng, [0.35, 0.30, 0.20, 0.15])
    downtown = stores.index(0.15)
    shapes = {g: [0.85, 0.85, 0.9, 0.95, 1.1, 1.45, 1.3] for g in range(4)}
    shapes[downtown] = [1.1, 1.05, 1.05, 1.1, 1.15, 0.8, 0.65]
    shapes[stores.index(0.20)] = [0.95, 0.95, 0.95, 1.0, 1.1, 1.3, 1.15]
    storm = date(2025, 3, 5)

    def lunar(d: date) -> tuple[float, str]:
        for ny in _LUNAR_NEW_YEAR:
            k = (ny - d).days
            if 1 <= k <= 10:
                return 1 + 0.9 * math.exp(-(k - 1) / 3), "lunar_new_year"
            if k == 0:
                return 0.8, "lunar_new_year"
            if -3 <= k < 0:
                return 0.7, "lunar_new_year"
        for moon in _MID_AUTUMN:
            k = (moon - d).days
            if 1 <= k <= 14:
                return 1 + 0.35 * (15 - k) / 14, "mid_autumn"
            if k == 0:
                return 1.1, "mid_autumn"
        return 1.0, ""

    start, n = date(2024, 6, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        hol = cal.name(d)
        season, kind = lunar(d)
        level = 9_000 * math.exp(0.0001 * i) * (0.3 if d == storm else 1.1 if d == storm + timedelta(days=1) else 1.0)
        groups = []
        for g, share in enumerate(stores):
            f = shapes[g][d.weekday()] * (1 + (season - 1) / 2 if g == downtown and season > 1 else season)
            if hol:
                f *= 0.5 if g == downtown else 0.35 if "Christmas" in hol else 0.6 if "New Year" in hol else 0.85
            groups.append(_noisy(rng, level * share * f, 0.04))
        series.append((at, groups))
        if hol:
            cats[at] = "holiday"
        elif kind:
            cats[at] = kind
    return Estate("grocer_toronto", "day", series, 400, cal, cats)


def usage_sg(seed: int) -> Estate:
    """Blind (thirteenth round): a Singapore B2B software start-up's metered API usage rows per day by
    plan (five: free 40%, growth 25%, enterprise 15%, starter 12%, partners 8%, in an order set by the
    seed), compounding 8% a month (x6.8 over the two years), Singapore's holidays (paid plans x0.35,
    free x0.8), weekends (paid plans Saturday x0.4 and Sunday x0.3, free x0.8 and x0.75). Enterprise and
    partner usage exports and invoice reconciliation run on the third Singapore business day of each
    month (x1.8 for those two plans). A pipeline migration on day 200 (21 March 2025: retries
    de-duplicated) cut every plan x0.8 for good; the owner accepted it then (in the history). Heavy-tailed
    but real: each day, with chance 3%, one paid plan bursts x1.3-1.8 (a customer's backfill or batch
    job), otherwise 5% lognormal noise per plan. September 2024 to September 2026."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SG")
    plans = _unequal(rng, [0.40, 0.25, 0.15, 0.12, 0.08])
    free = plans.index(0.40)
    billed = {plans.index(0.15), plans.index(0.08)}
    growth = math.log(1.08) / 30.44  # 8% a month, per day
    start, n = date(2024, 9, 2), 760
    days = [start + timedelta(days=i) for i in range(n)]
    open_days = _business_days(cal, start, days[-1])
    third: set[date] = set()
    for y, m in sorted({(d.year, d.month) for d in days}):
        month_days = [d for d in open_days if (d.year, d.month) == (y, m)]
        if len(month_days) >= 3 and month_days[0].day <= 5:
            third.add(month_days[2])
    series, cats, shifts = [], {}, []
    level = 4_000.0
    for i, d in enumerate(days):
        at = datetime(d.year, d.month, d.day)
        if i == 200:
            level *= 0.8
            shifts.append(at)
        hol = cal.name(d)
        burst = rng.choice([g for g in range(5) if g != free]) if rng.random() < 0.03 else None
        lift = rng.uniform(1.3, 1.8)
        groups = []
        for g, share in enumerate(plans):
            if g == free:
                f = 0.8 if hol else {5: 0.8, 6: 0.75}.get(d.weekday(), 1.0)
            else:
                f = 0.35 if hol else {5: 0.4, 6: 0.3}.get(d.weekday(), 1.0)
            if d in third and g in billed:
                f *= 1.8
            if g == burst:
                f *= lift
            groups.append(_noisy(rng, level * math.exp(growth * i) * share * f, 0.05))
        series.append((at, groups))
        if hol:
            cats[at] = "holiday"
        elif d in third:
            cats[at] = "billing_day"
        elif burst is not None:
            cats[at] = "burst"
    _mark_after_shift(cats, shifts, timedelta(days=1), 28)
    return Estate("usage_sg", "day", series, 400, cal, cats, shifts)


# The fourteenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (three, six, four, five)

# each line's calls per local hour against its busiest hour: the general line's mornings, the mental-health
# line's late evenings, the poison line's afternoons and early evenings (children at home)
_HELPLINE_HOURS = {
    "general": [0.25, 0.15, 0.1, 0.08, 0.08, 0.1, 0.2, 0.45, 0.8, 1.0, 1.0, 0.95,
                0.85, 0.8, 0.8, 0.75, 0.75, 0.7, 0.7, 0.7, 0.65, 0.6, 0.5, 0.35],
    "mental": [0.9, 0.7, 0.5, 0.4, 0.3, 0.25, 0.25, 0.3, 0.4, 0.5, 0.55, 0.55,
               0.55, 0.55, 0.6, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.0, 1.0, 1.0],
    "poison": [0.2, 0.12, 0.08, 0.06, 0.05, 0.06, 0.1, 0.3, 0.5, 0.6, 0.7, 0.75,
               0.8, 0.85, 0.85, 0.9, 0.95, 1.0, 1.0, 0.95, 0.8, 0.6, 0.45, 0.3],
}


def helpline_santiago_hourly(seed: int) -> Estate:
    """Blind (fourteenth round): a Chilean public health hotline's answered calls per hour by line (three:
    general medical advice, busiest hour 180 calls; mental health, 40; poison information, 30; in an order
    set by the seed), 24/7 in America/Santiago, whose daylight saving ends at local midnight, not at 02:00:
    on Holy Saturday, 4 April 2026, the clock goes back from 24:00 to 23:00, so that local day holds 25
    hours and its 23:00 twice (UTC-3, then UTC-4), inside the evaluated fortnight. Nurses work 12-hour
    shifts changing at 08:00 and 20:00: the handover hour answers x0.7 and the hour after x1.2 (the
    queue). Nights (01:00-06:00) hold a handful of calls per line. Clinics shut on public holidays, so the
    general line reads x1.3 on them (Good Friday and Holy Saturday in the fortnight), x1.15 on Sundays,
    x1.1 on Mondays; the poison line x1.2 on weekends and holidays (children at home), the mental-health
    line x1.05 on Sundays and x1.1 on holidays. Poisson counts with 5% extra noise per hour and line.
    The local days 30 March to 12 April 2026 evaluated, four weeks of hours before them."""
    rng = random.Random(seed)
    zone = "America/Santiago"
    cal = HolidayCalendar(country="CL")
    tz, utc = ZoneInfo(zone), ZoneInfo("UTC")
    lines = _unequal(rng, ["general", "mental", "poison"])
    peak = {"general": 180.0, "mental": 40.0, "poison": 30.0}
    first = datetime(2026, 3, 2).replace(tzinfo=tz).astimezone(utc)
    tail = datetime(2026, 3, 30).replace(tzinfo=tz).astimezone(utc)
    end = datetime(2026, 4, 13).replace(tzinfo=tz).astimezone(utc)
    # the night the clock goes back: local 22:00 on Holy Saturday (UTC-3) to 02:00 on Sunday (UTC-4)
    night_from = datetime(2026, 4, 4, 22).replace(tzinfo=tz).astimezone(utc)
    night_to = datetime(2026, 4, 5, 2).replace(tzinfo=tz).astimezone(utc)

    def day_factor(line: str, d: date) -> float:
        holiday, wd = bool(cal.name(d)), d.weekday()
        if line == "general":
            return 1.3 if holiday else {6: 1.15, 0: 1.1}.get(wd, 1.0)
        if line == "poison":
            return 1.2 if holiday or wd >= 5 else 1.0
        return 1.1 if holiday else 1.05 if wd == 6 else 1.0

    series, cats = [], {}
    at = first
    while at < end:
        local = at.astimezone(tz)
        d, h = local.date(), local.hour
        handover = 0.7 if h in (8, 20) else 1.2 if h in (9, 21) else 1.0
        groups = [_poisson(rng, peak[line] * _HELPLINE_HOURS[line][h] * day_factor(line, d) * handover
                           * math.exp(rng.gauss(0, 0.05))) for line in lines]
        stamp = at.replace(tzinfo=None)
        series.append((stamp, groups))
        if night_from <= at <= night_to:
            cats[stamp] = "dst_night"
        elif cal.name(d):
            cats[stamp] = "holiday"
        elif d in (date(2026, 4, 5), date(2026, 4, 6)):
            cats[stamp] = "after_dst"
        elif h in (8, 9, 20, 21):
            cats[stamp] = "handover"
        elif 1 <= h < 6:
            cats[stamp] = "night"
        at += timedelta(hours=1)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail.replace(tzinfo=None))
    return Estate("helpline_santiago_hourly", "hour", series, evaluate_from, cal, cats, timezone=zone)


def _festival_firsts(cal: HolidayCalendar, first: date, last: date) -> dict[str, list[date]]:
    """The first day of each run of days `cal` names with a name holding each key (Rosh Hashanah's two
    days are one festival), from `first` to `last`."""
    out: dict[str, list[date]] = {}
    day = first
    while day <= last:
        name, before = cal.name(day), cal.name(day - timedelta(days=1))
        for key in ("Rosh Hashanah", "Yom Kippur", "Sukkot", "Pesach", "Shavuot", "Simchat Torah"):
            if key in name and key not in before and not name.startswith("Seventh"):
                out.setdefault(key, []).append(day)
        day += timedelta(days=1)
    return out


def groceries_il_weekly(seed: int) -> Estate:
    """Blind (fourteenth round): an Israeli online supermarket's delivered orders per week by region (six:
    Gush Dan 32%, Jerusalem 20%, the Sharon 15%, Haifa and the north 13%, the Shfela 12%, the south 8%, in an
    order set by the seed), on the Israeli week: a partition per Sunday, each the sum of Sunday to Saturday
    (an ISO week starts on Monday). No deliveries on Shabbat or on a festival's days (the `holidays` IL
    calendar: Rosh Hashanah's two days, Yom Kippur, Sukkot, Simchat Torah, Passover's first and seventh
    days, Shavuot), Independence Day x0.4; Thursday the big shop (x1.35), Friday a short day (x0.55). The
    Hebrew calendar moves the festivals about eleven days earlier each year and a month later after a leap
    year: the five days before Rosh Hashanah and before Passover x1.9 (the festival meals), before Sukkot
    and Shavuot x1.3, before Yom Kippur's fast x1.2; Passover's intermediate days x0.8 and Sukkot's x0.85
    (families away). Jerusalem's households swing 1.4 times as far from 1 as the others. The seven weeks
    from 8 October 2023 (in the history only) fall to x0.65 and climb back. 4% noise per region, +3% a year.
    Weeks from Sunday 1 January 2023: three years read, the 52 weeks of 2026 (Passover on 2 April, Rosh
    Hashanah on 12 September) evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="IL")
    regions = _unequal(rng, [0.32, 0.20, 0.15, 0.13, 0.12, 0.08])
    jerusalem = regions.index(0.20)
    start, n = date(2023, 1, 1), 208
    last = start + timedelta(weeks=n) - timedelta(days=1)
    firsts = _festival_firsts(cal, start - timedelta(days=30), last + timedelta(days=30))
    eve_lift = {"Rosh Hashanah": 1.9, "Pesach": 1.9, "Sukkot": 1.3, "Shavuot": 1.3, "Yom Kippur": 1.2}
    eves: dict[date, float] = {}
    spans: dict[date, str] = {}  # the days each season's week names: its eves to its last festival day
    for key, days in firsts.items():
        for f in days:
            if key in eve_lift:
                for k in range(1, 6):
                    eves.setdefault(f - timedelta(days=k), eve_lift[key])
    for f in firsts.get("Pesach", []):
        for k in range(-5, 7):
            spans[f + timedelta(days=k)] = "passover"
    for f in firsts.get("Rosh Hashanah", []):
        close = min(s for s in firsts["Simchat Torah"] if s > f)
        for k in range(-5, (close - f).days + 1):
            spans[f + timedelta(days=k)] = "tishrei"
    between = set()  # the intermediate days (chol hamoed) of Passover and Sukkot
    for key, closing in (("Pesach", "Seventh day of Pesach"), ("Sukkot", "Simchat Torah")):
        for f in firsts.get(key, []):
            day = f + timedelta(days=1)
            while closing not in cal.name(day) and (day - f).days < 9:
                between.add(day)
                day += timedelta(days=1)
    weekday = [1.0, 1.0, 1.0, 1.35, 0.55, 0.0, 1.0]  # Monday .. Sunday

    def day_factor(d: date) -> float:
        name = cal.name(d)
        if name and "Independence" not in name:
            return 0.0
        f = weekday[d.weekday()] * (0.4 if name else 1.0)
        if f and d in eves:
            f *= eves[d]
        elif f and d in between:
            f *= 0.8 if spans.get(d) == "passover" else 0.85
        return f

    disruption = date(2023, 10, 8)
    series, cats = [], {}
    for i in range(n):
        sunday = start + timedelta(weeks=i)
        at = datetime(sunday.year, sunday.month, sunday.day)
        days = [sunday + timedelta(days=k) for k in range(7)]
        weeks_in = (sunday - disruption).days // 7
        shock = 0.65 + 0.35 * weeks_in / 7 if 0 <= weeks_in < 7 else 1.0
        level = 10_000 * math.exp(math.log(1.03) * i / 52.18) * shock
        groups = []
        for g, share in enumerate(regions):
            total = 0.0
            for d in days:
                f = day_factor(d)
                if g == jerusalem and f:
                    base = weekday[d.weekday()]
                    f = base * (1 + 1.4 * (f / base - 1))
                total += f
            groups.append(_noisy(rng, level * share * total, 0.04))
        series.append((at, groups))
        kinds = {spans[d] for d in days if d in spans}
        if kinds:
            cats[at] = "passover" if "passover" in kinds else "tishrei"
        elif any(cal.name(d) or d in eves for d in days):
            cats[at] = "holiday"
    return Estate("groceries_il_weekly", "day", series, 156, cal, cats)


def contracts_ie(seed: int) -> Estate:
    """Blind (fourteenth round): a Dublin B2B software company's signed order forms per day by sales motion
    (four: renewals 35%, mid-market new business 30%, enterprise new business 20%, expansions 15%, in an
    order set by the seed), on a fiscal year ending 31 January (quarters closing on 30 April, 31 July, 31
    October and 31 January; configured by the owner, `fiscal_year_end` 1). The quarter's push: its last
    fourteen days x1.5 for new business and expansions (the fiscal year's last quarter x1.9), renewals x1.15
    (contracts co-terminated on quarter ends); the seven days after a close x0.7 (the pipeline spent;
    renewals x0.9). Weekdays Monday x0.9 to Friday x1.1, weekends x0.15 (x0.45 inside a push, before its
    lift: reps chasing signatures), Irish holidays x0.2, the office's Christmas closure (24 December to
    1 January) x0.1. 7% noise per motion; +30% a year. From 1 February 2025: a fiscal year read, most of the next evaluated
    (four quarter closes in each)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="IE", fiscal_year_end=1)
    motions = _unequal(rng, [0.35, 0.30, 0.20, 0.15])
    renewals = motions.index(0.35)
    closes = [date(y, m, 31 if m != 4 else 30) for y in range(2025, 2028) for m in (1, 4, 7, 10)]
    weekday = [0.9, 1.0, 1.0, 1.0, 1.1, 0.15, 0.15]
    growth = math.log(1.3) / 365.25
    start, n = date(2025, 2, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        close = min(c for c in closes if c >= d)
        prev = max((c for c in closes if c < d), default=date(2025, 1, 31))
        push = (close - d).days < 14
        after = (d - prev).days <= 7
        year_end = push and close.month == 1
        christmas = (d.month, d.day) >= (12, 24) or (d.month, d.day) <= (1, 1)
        hol = cal.name(d)
        f_day = 0.1 if christmas else 0.2 if hol else weekday[d.weekday()]
        if push and d.weekday() >= 5 and not (christmas or hol):
            f_day = 0.45
        groups = []
        for g, share in enumerate(motions):
            f = f_day
            if push:
                f *= 1.15 if g == renewals else 1.9 if year_end else 1.5
            elif after:
                f *= 0.9 if g == renewals else 0.7
            groups.append(_noisy(rng, 1_200 * math.exp(growth * i) * share * f, 0.07))
        series.append((at, groups))
        if hol or christmas:
            cats[at] = "holiday"
        elif year_end:
            cats[at] = "year_end"
        elif push:
            cats[at] = "quarter_end"
        elif after:
            cats[at] = "quarter_start"
    return Estate("contracts_ie", "day", series, 400, cal, cats)


def bakeries_pt(seed: int) -> Estate:
    """Blind (fourteenth round): a Lisbon bakery-café chain's till receipts per day by shop (five: two in the
    tourist centre, 28% and 22%, three neighbourhood shops, 20%, 16% and 14%, in an order set by the seed),
    Lisbon's holidays (the `holidays` PT calendar, subdivision 11, Saint Anthony's Day on 13 June among
    them). The centre shops open every day, busiest at weekends (Saturday x1.3, Sunday x1.2); the
    neighbourhood shops were closed on Sundays (no receipts) until they began opening on Sunday mornings on
    6 April 2025 (x0.55 of a weekday; the owner accepted the shape change then, in the history). Summer
    moves the shops apart: in July and August the centre x1.35 (tourists), the neighbourhood x0.8
    (residents away), and the smallest neighbourhood shop closes for its staff's holidays ("fechado para
    férias") from 1 to 15 August every year: no receipts for a fortnight, in no calendar (2024's in the
    history, 2025's evaluated). The Santos Populares: Saint Anthony's eve (12 June) x1.6 and June's
    weekends x1.15 in every shop; holidays x1.1 in the centre and x0.6 in the neighbourhood (Christmas Day
    x0.3 and New Year's Day x0.5 everywhere). 5% noise per shop; +0.02%/day. From 3 June 2024."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PT", subdiv="11")
    shops = _unequal(rng, [0.28, 0.22, 0.20, 0.16, 0.14])
    centre = {shops.index(0.28), shops.index(0.22)}
    resting = shops.index(0.14)
    centre_week = [0.85, 0.85, 0.9, 0.95, 1.05, 1.3, 1.2]
    sunday_opening = date(2025, 4, 6)
    start, n = date(2024, 6, 3), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        hol = cal.name(d)
        summer = d.month in (7, 8)
        closed = d.month == 8 and d.day <= 15
        santos = 1.6 if (d.month, d.day) == (6, 12) else 1.15 if d.month == 6 and d.weekday() >= 5 else 1.0
        groups = []
        for g, share in enumerate(shops):
            if g in centre:
                f = centre_week[d.weekday()] * (1.35 if summer else 1.0)
                f *= 1.1 if hol else 1.0
            else:
                f = (0.55 if d >= sunday_opening else 0.0) if d.weekday() == 6 else 1.05 if d.weekday() == 4 else 1.0
                f *= 0.8 if summer else 1.0
                f *= 0.6 if hol else 1.0
                if g == resting and closed:
                    f = 0.0
            if (d.month, d.day) == (12, 25):
                f = 0.3 * (centre_week[d.weekday()] if g in centre else 1.0)
            elif (d.month, d.day) == (1, 1):
                f *= 0.5 / (1.1 if g in centre else 0.6)
            groups.append(_noisy(rng, 2_500 * math.exp(0.0002 * i) * share * f * santos, 0.05))
        series.append((at, groups))
        if hol:
            cats[at] = "holiday"
        elif closed:
            cats[at] = "shop_closed"
        elif santos > 1:
            cats[at] = "santos_populares"
        elif summer:
            cats[at] = "summer"
    at = datetime(sunday_opening.year, sunday_opening.month, sunday_opening.day)
    return Estate("bakeries_pt", "day", series, 400, cal, cats, shape_at=[at])


# The fifteenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (three, five, four, two)

# each kind of merchant's card payments per local hour, 07:00 to 21:00, against its busiest hour: the stores'
# mid-morning and late afternoon, the cafés' breakfast, lunch and dinner, the lodges' check-outs and dinners
_ISLAND_HOURS = {
    "stores": [0.15, 0.5, 0.8, 1.0, 0.95, 0.7, 0.6, 0.65, 0.8, 0.9, 0.7, 0.35, 0.2, 0.15, 0.12],
    "cafes": [0.35, 0.6, 0.55, 0.5, 0.6, 1.0, 0.9, 0.45, 0.35, 0.3, 0.45, 0.85, 0.95, 0.6, 0.25],
    "lodges": [0.3, 0.6, 1.0, 0.9, 0.6, 0.4, 0.5, 0.7, 0.6, 0.5, 0.5, 0.7, 0.65, 0.4, 0.2],
}
_ISLAND_OPEN = range(7, 22)  # local hours with card payments (no rows outside them: no partition)
_SUPPLY_SHIPS = [date(2025, 3, 11), date(2025, 3, 25), date(2025, 4, 8)]  # the fortnightly supply ship, Tuesdays


def payments_lord_howe_hourly(seed: int) -> Estate:
    """Blind (fifteenth round): Lord Howe Island's card payments per hour by kind of merchant (three: the
    general stores, busiest hour 60 payments; cafés and restaurants, 70; lodges and tours, 35; in an order set
    by the seed), in Australia/Lord_Howe, whose daylight saving moves the clock by half an hour: UTC+11 in
    summer, UTC+10:30 from 02:00 on Sunday 6 April 2025 (inside the evaluated fortnight), so the partitions
    (local hours) are on the UTC hour before the change and on :30 UTC after it. Payments only from 07:00 to
    21:59 local (no rows, so no partition, at night). The island's supply ship lands every second Tuesday
    (11 and 25 March, 8 April; in no calendar): the stores x1.3 from 14:00 on its day and x1.5 all the next
    day (fresh produce), the cafés x1.1 the next day. Sundays the stores open the morning only (x0.4 from
    13:00: the fuel depot and the bottle shop), the cafés' brunch (08:00-11:00) x1.3; Friday evenings
    (18:00-20:00) the cafés x1.5 (the bowling club's fish fry). Visitors thin out in autumn: -0.3% a day.
    Poisson counts (a late hour may hold a handful of payments, now and then none) with 6% extra noise per hour
    and kind. The local days 31 March to 13 April 2025 evaluated, four weeks before them."""
    rng = random.Random(seed)
    zone = "Australia/Lord_Howe"
    cal = HolidayCalendar(country="AU", subdiv="NSW")
    tz = ZoneInfo(zone)
    kinds = _unequal(rng, ["stores", "cafes", "lodges"])
    peak = {"stores": 60.0, "cafes": 70.0, "lodges": 35.0}
    start, first, end = date(2025, 3, 3), date(2025, 3, 31), date(2025, 4, 13)
    ship_next = {s + timedelta(days=1) for s in _SUPPLY_SHIPS}

    def factor(kind: str, d: date, h: int) -> float:
        f = 1.0
        if kind == "stores":
            if d in _SUPPLY_SHIPS and h >= 14:
                f *= 1.3
            elif d in ship_next:
                f *= 1.5
            if d.weekday() == 6 and h >= 13:
                f *= 0.4
        elif kind == "cafes":
            f *= 1.1 if d in ship_next else 1.0
            if d.weekday() == 6 and 8 <= h <= 11:
                f *= 1.3
            if d.weekday() == 4 and 18 <= h <= 20:
                f *= 1.5
        return f

    series, cats = [], {}
    d = start
    while d <= end:
        for h in _ISLAND_OPEN:
            stamp = _utc_hour(datetime(d.year, d.month, d.day, h), tz)
            trend = math.exp(-0.003 * (d - start).days)
            groups = [_poisson(rng, peak[k] * _ISLAND_HOURS[k][h - _ISLAND_OPEN[0]] * factor(k, d, h) * trend
                               * math.exp(rng.gauss(0, 0.06))) for k in kinds]
            series.append((stamp, groups))
            if cal.name(d):
                cats[stamp] = "holiday"
            elif d in _SUPPLY_SHIPS or d in ship_next:
                cats[stamp] = "ship_day"
            elif d in (date(2025, 4, 6), date(2025, 4, 7)):  # the first two days on the winter offset
                cats[stamp] = "after_dst"
        d += timedelta(days=1)
    tail = _utc_hour(datetime(first.year, first.month, first.day, _ISLAND_OPEN[0]), tz)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail)
    return Estate("payments_lord_howe_hourly", "hour", series, evaluate_from, cal, cats, timezone=zone)


# the months of a Kenyan county's fiscal year (July to June) against an ordinary month: July's budget not yet
# released by the exchequer, August catching up, quarter closes, and June's rush to spend the year's budget
_COUNTY_MONTHS = {7: 0.5, 8: 0.75, 9: 1.15, 10: 0.95, 11: 1.0, 12: 1.15, 1: 0.85, 2: 0.95, 3: 1.15, 4: 1.0,
                  5: 1.05, 6: 1.6}


def payments_ke_monthly(seed: int) -> Estate:
    """Blind (fifteenth round): a Kenyan county government's supplier payment lines per month by department
    (five: health 30%, roads and public works 24%, education 18%, water 16%, administration 12%, in an order set
    by the seed), dated on the month's last day, on a fiscal year ending 30 June (configured by the owner,
    `fiscal_year_end` 6). The year's shape: July x0.5 (the new budget's exchequer releases late), August x0.75,
    the quarter closes (September, December, March) x1.15, January x0.85, June x1.6 (spending the budget before
    it lapses). Each department swings its own distance from 1: roads (development spending) 1.5 times as far,
    water 1.2, education 0.8, administration 0.7, health (salaries, drugs) 0.6. The fourteen months from March
    2022 to April 2023 were lost in a system migration and backfilled at once from the legacy system's archive,
    which held one row per payment voucher, not per line: they read x0.6 (their shape intact), unlabelled, in
    the history only. 4% noise per department; +6% a year. From July 2021: 36 months read, 24 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="KE", fiscal_year_end=6)
    departments = _unequal(rng, [0.30, 0.24, 0.18, 0.16, 0.12])
    swing = {0.30: 0.6, 0.24: 1.5, 0.18: 0.8, 0.16: 1.2, 0.12: 0.7}
    ends = _month_ends(date(2021, 7, 1), 60)
    backfilled = range(8, 22)  # March 2022 to April 2023
    series, cats, incidents = [], {}, set()
    for i, d in enumerate(ends):
        at = datetime(d.year, d.month, d.day)
        base = _COUNTY_MONTHS[d.month]
        level = 30_000 * 1.06 ** (i / 12) * (0.6 if i in backfilled else 1.0)
        series.append((at, [_noisy(rng, level * s * max(0.1, 1 + swing[s] * (base - 1)), 0.04) for s in departments]))
        if i in backfilled:
            incidents.add(at)
        if d.month == 6:
            cats[at] = "year_end"
        elif d.month in (7, 8):
            cats[at] = "year_start"
        elif d.month in (9, 12, 3):
            cats[at] = "quarter_end"
    return Estate("payments_ke_monthly", "day", series, 36, cal, cats, incidents=incidents)


# Greek heat waves and cold snaps (in no calendar): (first day, last day)
_HEAT_WAVES = [(date(2024, 6, 11), date(2024, 6, 14)), (date(2024, 7, 10), date(2024, 7, 21)),
               (date(2025, 7, 21), date(2025, 7, 27))]
_COLD_SNAPS = [(date(2025, 2, 10), date(2025, 2, 14)), (date(2026, 1, 19), date(2026, 1, 23))]
# each region's outage reports by month against its year's mean (read at mid-month, straight lines between):
# Attica's air-conditioning summer and quiet August, Central Macedonia's winter, Crete's and the islands'
# tourist summers (the islands' load doubles)
_GRID_SEASONS = {
    "attica": [1.1, 1.05, 0.95, 0.9, 0.95, 1.1, 1.25, 1.05, 1.0, 0.95, 1.0, 1.1],
    "macedonia": [1.25, 1.2, 1.0, 0.9, 0.9, 1.0, 1.1, 1.0, 0.95, 0.95, 1.05, 1.2],
    "crete": [1.0, 1.0, 0.95, 0.95, 1.05, 1.2, 1.35, 1.4, 1.2, 1.0, 0.95, 1.0],
    "islands": [0.7, 0.7, 0.75, 0.85, 1.1, 1.5, 1.9, 2.0, 1.5, 1.0, 0.75, 0.7],
}


def _season_at(months: list[float], d: date) -> float:
    """A month-by-month shape read smoothly: straight lines between each month's 15th."""
    mid = date(d.year, d.month, 15)
    if d >= mid:
        other = date(d.year + (d.month == 12), d.month % 12 + 1, 15)
    else:
        other = date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 15)
    w = abs((d - mid).days) / abs((other - mid).days)
    return months[mid.month - 1] * (1 - w) + months[other.month - 1] * w


def outages_gr(seed: int) -> Estate:
    """Blind (fifteenth round): a Greek distribution operator's outage reports (customer calls and network
    alarms) per day by region (four: Attica 40%, Central Macedonia 25%, the Aegean islands 20%, Crete 15%, in
    an order set by the seed), each with its own year (`_GRID_SEASONS`: Attica's air-conditioning July, the
    north's winter, the islands' load doubling with the tourists from June to September). Weather in no
    calendar: heat waves (two in 2024's history, 21-27 July 2025 evaluated) lift Attica and Central Macedonia
    to x1.2 on the first day, x1.4 from the second (x1.3 the last), Crete and the islands three quarters as
    far, and the day after a heat wave x1.1 (the repairs' backlog); cold snaps (10-14 February 2025 in the
    history, 19-23 January 2026 evaluated) Central Macedonia x1.5, Attica x1.25, the islands x1.2 (gales),
    Crete x1.1. Weekdays x1.05-1.1 (planned works), Saturday x0.85, Sunday and the Greek holidays (Orthodox
    Easter's among them) x0.8. 6% noise per region; +0.01%/day. From 1 June 2024."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GR")
    shares = _unequal(rng, [0.40, 0.25, 0.20, 0.15])
    names = {0.40: "attica", 0.25: "macedonia", 0.20: "islands", 0.15: "crete"}
    heat_full = {"attica": 1.0, "macedonia": 1.0, "islands": 0.75, "crete": 0.75}
    cold = {"attica": 1.25, "macedonia": 1.5, "islands": 1.2, "crete": 1.1}
    weekday = [1.1, 1.05, 1.05, 1.05, 1.05, 0.85, 0.8]
    start, n = date(2024, 6, 1), 760
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        hol = cal.name(d)
        heat = next(((a, b) for a, b in _HEAT_WAVES if a <= d <= b + timedelta(days=1)), None)
        snap = any(a <= d <= b for a, b in _COLD_SNAPS)
        lift = 1.0
        if heat:
            a, b = heat
            lift = 1.1 if d > b else 1.2 if d == a else 1.3 if d == b else 1.4
        groups = []
        for s in shares:
            region = names[s]
            f = (0.8 if hol else weekday[d.weekday()]) * _season_at(_GRID_SEASONS[region], d)
            f *= 1 + heat_full[region] * (lift - 1)
            f *= cold[region] if snap else 1.0
            groups.append(_noisy(rng, 3_000 * math.exp(0.0001 * i) * s * f, 0.06))
        series.append((at, groups))
        if heat:
            cats[at] = "heat_wave"
        elif snap:
            cats[at] = "cold_snap"
        elif hol:
            cats[at] = "holiday"
        elif d.month in (6, 7, 8, 9):
            cats[at] = "summer"
    return Estate("outages_gr", "day", series, 400, cal, cats)


# school holidays of two private-school networks (declared by the owner), each break (first day, last day);
# the southern school year starts in February and its long break spans Christmas and January. Curitiba's
# schools start later, take a shorter July break and an October week off
_SP_BREAKS = [(date(2023, 12, 16), date(2024, 2, 4)), (date(2024, 7, 6), date(2024, 7, 28)),
              (date(2024, 12, 14), date(2025, 2, 2)), (date(2025, 7, 5), date(2025, 7, 27)),
              (date(2025, 12, 13), date(2026, 2, 1))]
_PR_BREAKS = [(date(2023, 12, 20), date(2024, 2, 14)), (date(2024, 7, 13), date(2024, 7, 28)),
              (date(2024, 10, 14), date(2024, 10, 18)), (date(2024, 12, 20), date(2025, 2, 9)),
              (date(2025, 7, 12), date(2025, 7, 27)), (date(2025, 10, 13), date(2025, 10, 17)),
              (date(2025, 12, 19), date(2026, 2, 8))]


def canteens_br(seed: int) -> Estate:
    """Blind (fifteenth round): a Brazilian school-canteen app's meal orders per day by city (two private-school
    networks: São Paulo 60%, Curitiba 40%, in an order set by the seed), term time only: on a school day the
    orders (Monday x1.0 to Friday x1.15, the treat day), in the network's school holidays (declared by the
    owner as breaks, each city its own: `_SP_BREAKS`, `_PR_BREAKS`; the school year starts in February, after
    a break spanning Christmas and January) x0.06 of a school day (credit top-ups and holiday camps),
    weekends x0.04, public holidays x0.05 (each city's own: São Paulo's 9 July, inside its July break, and
    Curitiba's 8 September, declared) and Carnival's Monday and Tuesday (declared) x0.05, Ash Wednesday
    (declared; classes from noon) x0.55. A term's first five school days climb from x0.6 to x0.95 (cards to
    register, menus to learn). 5% noise per city; +15% a year (schools joining). From 1 January 2024: the 2024
    school year read, 2025's evaluated."""
    rng = random.Random(seed)
    carnival = {}
    for year in (2024, 2025, 2026):
        easter = _easter(year)
        carnival[easter - timedelta(days=48)] = "Carnaval"
        carnival[easter - timedelta(days=47)] = "Carnaval"
        carnival[easter - timedelta(days=46)] = "Quarta-feira de Cinzas"
    curitiba = {date(year, 9, 8): "Nossa Senhora da Luz dos Pinhais" for year in (2024, 2025)}  # the city's own
    cities = _unequal(rng, [0.60, 0.40])
    own = {0.60: ("SP", _SP_BREAKS, {}), 0.40: ("PR", _PR_BREAKS, curitiba)}
    calendars = [HolidayCalendar(country="BR", subdiv=own[s][0], dates={**carnival, **own[s][2]},
                                 breaks={"Férias escolares": own[s][1]}) for s in cities]
    cal = HolidayCalendar(country="BR", dates={**carnival, **curitiba},
                          breaks={"Férias escolares (São Paulo)": _SP_BREAKS, "Férias escolares (Curitiba)": _PR_BREAKS})
    weekday = [1.0, 1.05, 1.05, 1.0, 1.15]
    ramp = [0.6, 0.7, 0.8, 0.9, 0.95]
    start, n = date(2024, 1, 1), 760
    growth = math.log(1.15) / 365.25
    since_break = [5] * len(cities)  # school days since each city's last break or holiday run (5: settled)
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        groups, kinds = [], set()
        for g, s in enumerate(cities):
            c = calendars[g]
            name = c.name(d)
            in_break = any(a <= d <= b for a, b in own[s][1])
            if d.weekday() >= 5:
                f = 0.04
            elif in_break:
                f, since_break[g] = 0.06, 0
                kinds.add("school_break")
            elif name == "Quarta-feira de Cinzas":
                f = 0.55
                kinds.add("holiday")
            elif name:
                f = 0.05
                kinds.add("holiday")
            else:
                f = weekday[d.weekday()]
                if since_break[g] < 5:
                    f *= ramp[since_break[g]]
                    kinds.add("term_start")
                since_break[g] += 1
            groups.append(_noisy(rng, 10_000 * math.exp(growth * i) * s * f, 0.05))
        series.append((at, groups))
        for kind in ("holiday", "school_break", "term_start"):
            if kind in kinds:
                cats[at] = kind
                break
        else:
            if d.weekday() >= 5:
                cats[at] = "weekend"
    return Estate("canteens_br", "day", series, 400, cal, cats, group_calendars=list(calendars))


# The sixteenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's
# final run. Each has its own number of groups (three, four, three, four)

# a Hong Kong broker's order flow per local trading hour against the busiest (the open): the morning session
# 09:00-11:59, the lunch break (no trading, no partition), the afternoon 13:00-15:59 and the closing auction
_HK_HOURS = {9: 1.0, 10: 0.7, 11: 0.55, 13: 0.5, 14: 0.55, 15: 0.8, 16: 0.15}
# typhoon signal No. 8 hoisted before the open on this day and lowered at 10:30 (in no calendar): the
# morning session cancelled (no rows, no partition), the afternoon's flow pent up
_TYPHOON_MORNINGS = [date(2025, 9, 2), date(2025, 10, 10)]


def orders_hk_hourly(seed: int) -> Estate:
    """Blind (sixteenth round): a Hong Kong online broker's order messages per trading hour by channel (three:
    local equities 55%, Stock Connect northbound 15% (clients buying Shanghai/Shenzhen shares through Hong
    Kong), derivatives 30%, in an order set by the seed), in Asia/Hong_Kong (UTC+8, no daylight saving), the
    trading hours only: 09:00-11:59 and 13:00-16:59 local (the lunch break holds no rows, so no partition, a
    gap inside each day; the 16:00 hour is the closing auction, x0.15). No trading on weekends or Hong Kong
    holidays (National Day, 1 October; the day after Mid-Autumn, 7 October 2025). Northbound Stock Connect
    follows the mainland's calendar too (configured by the owner as that channel's own calendar, CN): closed
    on mainland holidays, so the channel holds zero orders on the Golden Week days Hong Kong trades (2, 3, 6
    and 8 October), and its first open day after them x1.6. Typhoon signal 8 before the open (2 September and
    10 October 2025, in no calendar): the morning cancelled (no partitions), the afternoon x1.5. Mondays'
    opening hour x1.2. Poisson counts with 8% extra noise per hour and channel; +0.2% a trading day. The local
    days 29 September to 12 October 2025 evaluated, from 25 August read."""
    rng = random.Random(seed)
    zone = "Asia/Hong_Kong"
    cal = HolidayCalendar(country="HK")
    mainland = HolidayCalendar(country="CN")
    tz = ZoneInfo(zone)
    shares = _unequal(rng, [0.55, 0.15, 0.30])
    northbound = shares.index(0.15)
    start, first, end = date(2025, 8, 25), date(2025, 9, 29), date(2025, 10, 12)
    series, cats = [], {}
    d, days_open, mainland_was_closed = start, 0, False
    while d <= end:
        if d.weekday() >= 5 or cal.name(d):
            d += timedelta(days=1)
            continue
        mainland_closed = bool(mainland.name(d))
        reopening = mainland_was_closed and not mainland_closed
        typhoon = d in _TYPHOON_MORNINGS
        for h, shape in _HK_HOURS.items():
            if typhoon and h < 13:
                continue
            stamp = _utc_hour(datetime(d.year, d.month, d.day, h), tz)
            mean = 900.0 * shape * math.exp(0.002 * days_open) * (1.2 if d.weekday() == 0 and h == 9 else 1.0)
            mean *= 1.5 if typhoon else 1.0
            groups = []
            for g, s in enumerate(shares):
                f = 1.0
                if g == northbound:
                    f = 0.0 if mainland_closed else 1.6 if reopening else 1.0
                groups.append(_poisson(rng, mean * s * f * math.exp(rng.gauss(0, 0.08))))
            series.append((stamp, groups))
            if typhoon:
                cats[stamp] = "after_typhoon"
            elif mainland_closed:
                cats[stamp] = "connect_closed"
            elif reopening:
                cats[stamp] = "connect_reopens"
        mainland_was_closed = mainland_closed
        days_open += 1
        d += timedelta(days=1)
    tail = _utc_hour(datetime(first.year, first.month, first.day, 9), tz)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail)
    calendars: list[HolidayCalendar | None] = [mainland if g == northbound else None for g in range(len(shares))]
    return Estate("orders_hk_hourly", "hour", series, evaluate_from, cal, cats, timezone=zone,
                  group_calendars=calendars)


def _flu_peaks(rng: random.Random, years: range) -> dict[int, tuple[date, float]]:
    """Each winter's influenza peak (the southern winter: a day between late May and mid-August) and its
    height, drawn per year: a season comes early or late and hard or mild, in no calendar."""
    return {y: (date(y, 5, 25) + timedelta(days=rng.randint(0, 80)), rng.uniform(0.35, 0.9)) for y in years}


def admissions_ar(seed: int) -> Estate:
    """Blind (sixteenth round): a Buenos Aires private hospital group's admissions per day by service (four:
    emergency 40%, paediatrics 20%, maternity 15%, scheduled surgery 25%, in an order set by the seed), on
    Argentina's holidays (the `holidays` package's AR, its bridge days declared by decree included). Emergency
    admits every day (weekends x1.1, holidays x1.15); maternity flat (births do not keep a calendar; scheduled
    caesareans: weekends and holidays x0.7); scheduled surgery on weekdays only (Saturday x0.2, Sunday and
    holidays x0.05, the working day after a holiday x1.2). Each winter's influenza season (in no calendar) peaks
    on a day and at a height drawn per year (late May to mid-August, +35% to +90% for paediatrics, a third of
    that for emergency), a bell about three weeks wide each side; in the season's weeks scheduled surgery
    x0.85 (beds kept free). Poisson counts with 7% extra noise per service; +5% a year. From 1 January 2024:
    400 days read, to the end of January 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AR")
    services = _unequal(rng, ["emergency", "paediatrics", "maternity", "surgery"])
    level = {"emergency": 160.0, "paediatrics": 80.0, "maternity": 60.0, "surgery": 100.0}
    peaks = _flu_peaks(rng, range(2024, 2027))
    start, n = date(2024, 1, 1), 762
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        holiday = bool(cal.name(d))
        after_holiday = not holiday and d.weekday() < 5 and bool(cal.name(d - timedelta(days=1)) or (
            d.weekday() == 0 and cal.name(d - timedelta(days=3))))
        peak, height = peaks[d.year]
        flu = height * math.exp(-0.5 * ((d - peak).days / 21) ** 2)
        in_season = flu > 0.1 * height
        trend = 1.05 ** (i / 365.25)
        groups = []
        for s in services:
            if s == "emergency":
                f = (1.15 if holiday else 1.1 if d.weekday() >= 5 else 1.0) * (1 + flu / 3)
            elif s == "paediatrics":
                f = (1.05 if holiday or d.weekday() >= 5 else 1.0) * (1 + flu)
            elif s == "maternity":
                f = 0.7 if holiday or d.weekday() >= 5 else 1.0
            else:
                f = (0.05 if holiday or d.weekday() == 6 else 0.2 if d.weekday() == 5
                     else 1.2 if after_holiday else 1.0) * (0.85 if in_season else 1.0)
            groups.append(_poisson(rng, level[s] * f * trend * math.exp(rng.gauss(0, 0.07))))
        series.append((at, groups))
        if holiday:
            cats[at] = "holiday"
        elif after_holiday:
            cats[at] = "after_holiday"
        elif in_season:
            cats[at] = "flu_season"
    return Estate("admissions_ar", "day", series, 400, cal, cats)


# days of national load-shedding at stage 4 or above (in no calendar): the readers' handhelds cannot sync
# through the towers' dead batteries, a share of the day's reads lands the next business day
_LOAD_SHEDDING = [date(2024, 2, 13), date(2024, 2, 14), date(2024, 3, 19), date(2025, 2, 24), date(2025, 2, 25),
                  date(2025, 5, 6), date(2025, 8, 19), date(2025, 10, 28)]


def reads_za(seed: int) -> Estate:
    """Blind (sixteenth round): a Gauteng municipality's water-meter reads per day by depot (three depots:
    52%, 30%, 18%, in an order set by the seed). Every meter is read once a month: the month's routes are
    spread evenly over its reading days, the business days (South African holidays, the `holidays` package's ZA) but
    the last three of the month, so a day's reads are the month's meters over that month's count of reading
    days (16 to 20: a short month reads more per day); the last three business days are the billing run
    (re-reads and final reads only, x0.12); Saturdays x0.06 (special reads), Sundays and holidays x0.02. On
    load-shedding days (stage 4+, in no calendar) 35% of the day's reads sync the next business day. A new
    township joins on 1 July 2025 at one depot (its routes read from then on: +20% to that depot, accepted by
    the owner as a shift). 3% noise per depot; meters +4% a year. From 1 January 2024: 400 days read, the rest
    of 2025 and January 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ZA")
    depots = _unequal(rng, [0.52, 0.30, 0.18])
    joined = rng.randrange(len(depots))
    start, n = date(2024, 1, 1), 762
    last = start + timedelta(days=n + 40)
    business = _business_days(cal, start, last)
    by_month: dict[tuple[int, int], list[date]] = {}
    for b in business:
        by_month.setdefault((b.year, b.month), []).append(b)
    open_days = set(business)
    township = date(2025, 7, 1)
    carried = 0.0  # the month's share of meters read on a load-shedding day and still to sync
    series, cats = [], {}
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        month = by_month[(d.year, d.month)]
        meters = 60_000 * 1.04 ** (i / 365.25)
        billing = d in month[-3:]
        reading_day = 1.0 / (len(month) - 3)  # the month's share of its meters read on one reading day
        if d in open_days:
            f = 0.12 * reading_day if billing else reading_day
        else:
            f = (0.06 if d.weekday() == 5 and not cal.name(d) else 0.02) * reading_day
        late = False
        if d in open_days:  # a load-shedding day's unsynced reads land on the next business day, on top of its own
            late = carried > 0
            f, carried = (0.65 * f + carried, 0.35 * f) if d in _LOAD_SHEDDING else (f + carried, 0.0)
        groups = [_noisy(rng, meters * s * f * (1.2 if g == joined and d >= township else 1.0), 0.03)
                  for g, s in enumerate(depots)]
        series.append((at, groups))
        if cal.name(d):
            cats[at] = "holiday"
        elif d in _LOAD_SHEDDING or late:
            cats[at] = "load_shedding"
        elif billing:
            cats[at] = "billing_run"
        elif d.weekday() >= 5:
            cats[at] = "weekend"
    shift = datetime(township.year, township.month, township.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("reads_za", "day", series, 400, cal, cats, shift_at=[shift])


# a Finnish university's teaching periods by ISO week (the academic year's four periods, each ending in an exam
# week), declared by the owner as breaks: the teaching-free weeks between periods and the summer
def _fi_breaks(years: range) -> dict[str, list[tuple[date, date]]]:
    def week(y: int, w: int) -> date:
        return date.fromisocalendar(y, w, 1)
    return {
        "Syysloma (autumn break)": [(week(y, 43), week(y, 43) + timedelta(days=6)) for y in years],
        "Joululoma (Christmas break)": [(week(y, 51), week(y + 1, 1) + timedelta(days=6)) for y in years],
        "Talviloma (winter break)": [(week(y, 9), week(y, 9) + timedelta(days=6)) for y in years],
        "Kesä (summer)": [(week(y, 23), week(y, 34) + timedelta(days=6)) for y in years],
    }


_FI_EXAM_WEEKS = {42, 50, 8, 20}  # the last week of each teaching period
_FI_ORIENTATION = 35  # new students' orientation week, the week after the summer (in no calendar)


def loans_fi_weekly(seed: int) -> Estate:
    """Blind (sixteenth round): a Finnish university library's loans per ISO week (a partition per Monday) by
    campus (four: city centre 40%, science 30%, medicine 18%, the rural agriculture campus 12%, in an order set
    by the seed). Four teaching periods a year: the exam week ending each (weeks 42, 50, 8 and 20) x1.35, the
    teaching-free weeks between them (week 43, weeks 51 to 1, week 9; declared by the owner as breaks) x0.45,
    summer (weeks 23-34, declared) x0.15, except medicine (clinical rotations run through summer) x0.5;
    orientation week (week 35, in no calendar) x1.25 at every campus but medicine; a teaching week holding a
    Finnish holiday on a weekday x0.85 (Easter's x0.8; Epiphany, May Day, Ascension). The February 2024 political strikes closed
    the city-centre campus for a week (unlabelled, history only). 6% noise per campus; -2% a year (e-books).
    From ISO week 1 of 2023: three years read, the fourth (2026, with its week 53) evaluated."""
    rng = random.Random(seed)
    breaks = _fi_breaks(range(2022, 2028))
    cal = HolidayCalendar(country="FI", breaks=breaks)
    campuses = _unequal(rng, [0.40, 0.30, 0.18, 0.12])
    medicine, centre = campuses.index(0.18), campuses.index(0.40)
    strike = date(2024, 1, 29)
    start, n = date(2023, 1, 2), 210
    series, cats, incidents = [], {}, set()
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        w = monday.isocalendar()[1]
        names = {cal.name(monday + timedelta(days=k)) for k in range(5)} - {""}
        summer = 23 <= w <= 34
        teaching_free = w in (43, 51, 52, 53, 1, 9)
        base = 0.15 if summer else 0.45 if teaching_free else 1.35 if w in _FI_EXAM_WEEKS else 1.0
        holiday = 1.0
        for name in names:
            holiday *= 0.8 if "Easter" in name or "Good Friday" in name else 0.85
        level = 9_000 * 0.98 ** (i / 52.18)
        groups = []
        for g, s in enumerate(campuses):
            f = 0.5 if g == medicine and summer else base
            if w == _FI_ORIENTATION and g != medicine:
                f *= 1.25
            if g == centre and monday == strike:
                f *= 0.1
            groups.append(_noisy(rng, level * s * f * (1.0 if teaching_free or summer else holiday), 0.06))
        series.append((at, groups))
        if monday == strike:
            incidents.add(at)
        if w == 53:
            cats[at] = "week_53"
        elif w in _FI_EXAM_WEEKS:
            cats[at] = "exam_week"
        elif teaching_free:
            cats[at] = "break"
        elif summer:
            cats[at] = "summer"
        elif w == _FI_ORIENTATION:
            cats[at] = "orientation"
        elif names:
            cats[at] = "holiday"
    return Estate("loans_fi_weekly", "day", series, 156, cal, cats, incidents=incidents)


# a Bangkok fare-clearing house's taps per local service hour (06:00-23:59; the lines close at midnight, so no
# partition at night), against the busiest weekday hour: two commuter peaks on weekdays, a flat afternoon at weekends
_BKK_WEEKDAY = {6: 0.35, 7: 0.85, 8: 1.0, 9: 0.6, 10: 0.4, 11: 0.4, 12: 0.45, 13: 0.4, 14: 0.4, 15: 0.45, 16: 0.6,
                17: 0.95, 18: 0.9, 19: 0.6, 20: 0.45, 21: 0.35, 22: 0.22, 23: 0.1}
_BKK_WEEKEND = {6: 0.12, 7: 0.18, 8: 0.25, 9: 0.3, 10: 0.38, 11: 0.45, 12: 0.5, 13: 0.52, 14: 0.55, 15: 0.55,
                16: 0.55, 17: 0.55, 18: 0.5, 19: 0.45, 20: 0.38, 21: 0.3, 22: 0.2, 23: 0.1}
# the exodus before Songkran, the festival and the return, in no calendar but the festival's own days (the
# `holidays` package's TH holds 13-15 April): the days people leave Bangkok for their home provinces and come back
_EXODUS = (date(2026, 4, 10), date(2026, 4, 12))
_RETURN = (date(2026, 4, 16), date(2026, 4, 19))
# a hot-season thunderstorm (in no calendar): drivers leave their cars, the evening peak moves onto the trains
_BKK_STORM = (datetime(2026, 4, 8, 16), datetime(2026, 4, 8, 19))


def taps_bangkok_hourly(seed: int) -> Estate:
    """Blind (seventeenth round): a Bangkok contactless-fare clearing house's taps per local service hour by line
    (three: the Sukhumvit line 58%, the Silom line 30%, the Airport Rail Link 12%, in an order set by the seed), in
    Asia/Bangkok (UTC+7, no daylight saving), the service hours only, 06:00-23:59 local (no partition at night).
    Weekdays have two commuter peaks (08:00, 17:00-18:00), weekends a flat afternoon; the Airport Rail Link's hours
    flatter (0.3 + 0.7 of that shape: travellers at every hour). Songkran (13-15 April 2026, Monday to Wednesday, in
    the `holidays` package's TH, as is Chakri Day on 6 April): the commuter lines x0.35 (no commute), but the Silom
    line's afternoons and evenings x1.3 (Silom Road's water fight, 14:00-21:00); the Airport Rail Link x1.0. In no
    calendar: the exodus before it (Friday 10 April's evening 16:00-21:00 x1.25 on the commuter lines, towards the
    bus terminals; the weekend of 11-12 April x0.8; the Airport Rail Link x1.6 on all three days) and the return
    (16-19 April: the commuter lines x0.6, x0.75, x0.9, x0.9; the Airport Rail Link x1.4); a thunderstorm on
    Wednesday 8 April, 16:00-18:59, x1.25 on the commuter lines. The Airport Rail Link's flat 20-baht fare starts on
    Tuesday 7 April at 06:00 (a +30% step on that line, accepted by the owner as a shift). A signalling fault on the
    Sukhumvit line on 17 March, 07:00-08:59 (x0.4, unlabelled, history only). 4% noise per hour and line; +0.1% a
    day. The local days 6 to 19 April 2026 evaluated, from 9 March read."""
    rng = random.Random(seed)
    zone = "Asia/Bangkok"
    cal = HolidayCalendar(country="TH")
    tz = ZoneInfo(zone)
    lines = _unequal(rng, [0.58, 0.30, 0.12])
    sukhumvit, silom, airport = lines.index(0.58), lines.index(0.30), lines.index(0.12)
    start, first, end = date(2026, 3, 9), date(2026, 4, 6), date(2026, 4, 19)
    fare_cut = _utc_hour(datetime(2026, 4, 7, 6), tz)
    fault = (datetime(2026, 3, 17, 7), datetime(2026, 3, 17, 8))
    series, cats, incidents = [], {}, set()
    d = start
    while d <= end:
        songkran, exodus = "Songkran" in cal.name(d), _EXODUS[0] <= d <= _EXODUS[1]
        back = (d - _RETURN[0]).days if _RETURN[0] <= d <= _RETURN[1] else -1
        weekend = d.weekday() >= 5 or bool(cal.name(d))
        for h in range(6, 24):
            local = datetime(d.year, d.month, d.day, h)
            stamp = _utc_hour(local, tz)
            shape = (_BKK_WEEKEND if weekend else _BKK_WEEKDAY)[h]
            mean = 80_000.0 * math.exp(0.001 * (d - start).days)
            storm = _BKK_STORM[0] <= local < _BKK_STORM[1]
            groups = []
            for g, s in enumerate(lines):
                if g == airport:
                    f = (0.3 + 0.7 * shape) * (1.6 if exodus else 1.4 if back >= 0 else 1.0)
                    f *= 1.3 if stamp >= fare_cut else 1.0
                else:
                    f = shape
                    if songkran:
                        f *= 1.3 if g == silom and 14 <= h <= 21 else 0.35
                    elif exodus:
                        f *= 1.25 if d.weekday() == 4 and 16 <= h <= 21 else 0.8 if d.weekday() >= 5 else 1.0
                    elif back >= 0:
                        f *= (0.6, 0.75, 0.9, 0.9)[back]
                    f *= 1.25 if storm else 1.0
                    f *= 0.4 if g == sukhumvit and fault[0] <= local <= fault[1] else 1.0
                groups.append(_noisy(rng, mean * s * f, 0.04))
            series.append((stamp, groups))
            if fault[0] <= local <= fault[1]:
                incidents.add(stamp)
            if songkran:
                cats[stamp] = "songkran"
            elif cal.name(d):
                cats[stamp] = "holiday"
            elif exodus:
                cats[stamp] = "exodus"
            elif back >= 0:
                cats[stamp] = "return"
            elif storm:
                cats[stamp] = "storm"
        d += timedelta(days=1)
    _mark_after_shift(cats, [fare_cut], timedelta(hours=1), 24, first=1)
    tail = _utc_hour(datetime(first.year, first.month, first.day, 6), tz)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail)
    return Estate("taps_bangkok_hourly", "hour", series, evaluate_from, cal, cats, [fare_cut], timezone=zone,
                  incidents=incidents)


# the Islamic holy nights (kandil geceleri) Turkish donors keep, dated by the day whose evening begins them: Regaip,
# Miraç, Berat, Kadir (the 27th night of Ramadan) and Mevlid. In no calendar: the `holidays` package holds the two
# bayrams, not the kandils, and the owner has not declared them
_KANDILS = [date(2024, 1, 11), date(2024, 2, 6), date(2024, 2, 24), date(2024, 4, 5), date(2024, 9, 14),
            date(2025, 1, 2), date(2025, 1, 26), date(2025, 2, 13), date(2025, 3, 26), date(2025, 9, 3),
            date(2025, 12, 25), date(2026, 1, 15)]
_KURBAN_RUN_UP = 21  # days before Kurban Bayramı that proxy-sacrifice (vekalet) donations are taken


def _first_days(cal: HolidayCalendar, days: list[date], name: str) -> list[date]:
    """The first day of each run of days `cal` names `name` (a bayram of three or four days)."""
    return [d for d in days if cal.name(d) == name and cal.name(d - timedelta(days=1)) != name]


def donations_tr(seed: int) -> Estate:
    """Blind (seventeenth round): a Turkish charity foundation's online donations per day by kind of gift (four:
    general alms (sadaka) 40%, zakat and fitre 25%, water and food aid 20%, sacrifices (kurban: adak and akika all
    year, proxy sacrifices before the Feast) 15%, in an order set by the seed), on Turkey's holidays (the `holidays`
    package's TR, both bayrams included). Fridays x1.35 and Thursdays x1.1 (the day of the congregational prayer and
    its eve), Saturdays x0.85, Sundays x0.9. Ramadan (from its first day to the eve of Ramazan Bayramı): zakat and
    fitre x2.2, x3 in its last ten days, alms x1.3; during Ramazan Bayramı zakat x0.5 and alms x0.8. Kurban Bayramı:
    proxy-sacrifice donations taken for the 21 days before it (in no calendar), the sacrifices group rising from x2
    to x8 and x10 on the eve (arefe), then x0.2 on the feast's four days (the animals are already bought), the other
    kinds x0.85 on them; other national holidays x0.85 (every kind). The kandil nights (in no calendar, the day
    whose evening begins them): alms x1.6, zakat and aid x1.4. A bank adds the foundation to its mobile app's donate
    menu on 1 October 2025 (+22% on every kind, accepted by the owner as a shift). The payment gateway failed from
    the morning of 12 November 2024 (x0.3, unlabelled, history only). Poisson counts with 6% extra noise; +8% a
    year. From 1 January 2024: 400 days read, to the end of January 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TR")
    kinds = _unequal(rng, ["alms", "zakat", "aid", "sacrifice"])
    share = {"alms": 0.40, "zakat": 0.25, "aid": 0.20, "sacrifice": 0.15}
    start, n = date(2024, 1, 1), 762
    days = [start + timedelta(days=i) for i in range(n + 60)]
    feasts = _first_days(cal, days, "Eid al-Adha")
    fitr = _first_days(cal, days, "Eid al-Fitr")
    ramadan = {first + timedelta(days=k): (eid - first).days - k for first, eid in zip(_RAMADAN_STARTS, fitr)
               for k in range((eid - first).days)}  # a Ramadan day -> days left to the bayram
    app, gateway = date(2025, 10, 1), date(2024, 11, 12)
    weekday = [1.0, 1.0, 1.0, 1.1, 1.35, 0.85, 0.9]
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = days[i]
        at = datetime(d.year, d.month, d.day)
        name = cal.name(d)
        to_feast = min(((f - d).days for f in feasts if f >= d), default=99)
        run_up = 1 <= to_feast <= _KURBAN_RUN_UP
        level = 3_000.0 * 1.08 ** (i / 365.25) * weekday[d.weekday()] * (1.22 if d >= app else 1.0)
        level *= 0.3 if d == gateway else 1.0
        groups = []
        for k in kinds:
            f = 1.0
            if k == "sacrifice":
                f = (10.0 if to_feast == 1 else 2 + 6 * (_KURBAN_RUN_UP - to_feast) / (_KURBAN_RUN_UP - 2)
                     if run_up else 0.2 if name == "Eid al-Adha" else 0.85 if name and name != "Eid al-Fitr" else 1.0)
            elif name == "Eid al-Adha" or (name and name != "Eid al-Fitr"):
                f = 0.85
            elif name == "Eid al-Fitr":
                f = 0.5 if k == "zakat" else 0.8 if k == "alms" else 1.0
            elif d in ramadan:
                f = (3.0 if ramadan[d] <= 10 else 2.2) if k == "zakat" else 1.3 if k == "alms" else 1.0
            if d in _KANDILS and k != "sacrifice":
                f *= 1.6 if k == "alms" else 1.4
            groups.append(_poisson(rng, level * share[k] * f * math.exp(rng.gauss(0, 0.06))))
        series.append((at, groups))
        if d == gateway:
            incidents.add(at)
        if name:
            cats[at] = "holiday"
        elif run_up:
            cats[at] = "kurban_run_up"
        elif d in _KANDILS:
            cats[at] = "kandil"
        elif d in ramadan:
            cats[at] = "ramadan"
    shift = datetime(app.year, app.month, app.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("donations_tr", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Norwegian dental chain's weeks the owner declared: the clinics close for the industrial holiday (fellesferie,
# ISO weeks 28-30), an emergency dentist on call; the Tromsø clinic takes its own three weeks, one week later
_FELLESFERIE = range(28, 31)
_TROMSO_FERIE = range(29, 32)


def appointments_no_weekly(seed: int) -> Estate:
    """Blind (seventeenth round): a Norwegian dental chain's completed appointments per ISO week (a partition per
    Monday) by clinic (five: Oslo sentrum 30%, Oslo Majorstuen 22%, Bergen 20%, Trondheim 16%, Tromsø 12%, in an
    order set by the seed), on Norway's holidays (the `holidays` package's NO) and the fellesferie declared by the
    owner as a break (weeks 28-30, Monday to Sunday). The clinics close for the fellesferie (x0.22: the emergency
    dentist), but Tromsø takes weeks 29-31 (its own choice, in no calendar); the two weeks after a clinic's holiday
    catch up the postponed check-ups (x1.2). Before Christmas (weeks 48-50, in no calendar) x1.12: patients using
    the year's allowance and cleaning before the julebord season; week 52 x0.25 and week 1 x0.7. A weekday holiday
    takes 18% of its week (Easter week, with Maundy Thursday and Good Friday, x0.64; Ascension, 17 May, Whit
    Monday). From 5 January 2026 the state subsidy for adults aged 25-28 starts (+12% at every clinic, accepted by
    the owner as a shift). In week 11 of 2024 the booking system's export to the warehouse loaded a half week
    (x0.55, unlabelled, history only). 5% noise per clinic; +3% a year. From ISO week 1 of 2023: three years read,
    2026's weeks 1-52 evaluated."""
    rng = random.Random(seed)
    years = range(2022, 2028)
    breaks = {"Fellesferie": [(date.fromisocalendar(y, _FELLESFERIE[0], 1),
                                date.fromisocalendar(y, _FELLESFERIE[-1], 7)) for y in years]}
    cal = HolidayCalendar(country="NO", breaks=breaks)
    clinics = _unequal(rng, [0.30, 0.22, 0.20, 0.16, 0.12])
    tromso = clinics.index(0.12)
    subsidy, export = date(2026, 1, 5), date(2024, 3, 11)
    start, n = date(2023, 1, 2), 208
    series, cats, incidents = [], {}, set()
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        w = monday.isocalendar()[1]
        holidays_in_week = sum(bool(cal.name(monday + timedelta(days=k))) for k in range(5))
        level = 14_000 * 1.03 ** (i / 52.18) * (1.12 if monday >= subsidy else 1.0)
        level *= 0.55 if monday == export else 1.0
        season = 1.12 if 48 <= w <= 50 else 0.25 if w == 52 else 0.7 if w == 1 else 1.0
        groups = []
        for g, s in enumerate(clinics):
            ferie = _TROMSO_FERIE if g == tromso else _FELLESFERIE
            f = (0.22 if w in ferie else 1.2 if ferie[-1] < w <= ferie[-1] + 2
                 else season * (1 - 0.18 * holidays_in_week) if w not in (52, 1) else season)
            groups.append(_noisy(rng, level * s * f, 0.05))
        series.append((at, groups))
        if monday == export:
            incidents.add(at)
        if w in _FELLESFERIE:
            cats[at] = "fellesferie"
        elif _FELLESFERIE[-1] < w <= _TROMSO_FERIE[-1] + 2:
            cats[at] = "after_break"
        elif w in (52, 1):
            cats[at] = "christmas"
        elif 48 <= w <= 50:
            cats[at] = "pre_christmas"
        elif holidays_in_week:
            cats[at] = "holiday"
    shift = datetime(subsidy.year, subsidy.month, subsidy.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 8, first=1)
    return Estate("appointments_no_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a gym chain's check-ins by weekday (Monday's resolve to Sunday's rest)
_GYM_WEEK = [1.15, 1.1, 1.05, 1.0, 0.85, 0.65, 0.4]
_RESOLUTIONS = 0.4  # January's new members: +40% on 2 January, fading with a 25-day time constant (in no calendar)


def _long_weekend(cal: HolidayCalendar, d: date) -> bool:
    """A Saturday or Sunday of a long weekend: the Monday after it or the Friday before it a holiday (Colombia's
    Emiliani law moves most holidays to a Monday: a puente)."""
    if d.weekday() < 5:
        return False
    monday = d + timedelta(days=7 - d.weekday())
    friday = d - timedelta(days=d.weekday() - 4)
    return bool(cal.name(monday) or cal.name(friday))


def checkins_co_pe(seed: int) -> Estate:
    """Blind (seventeenth round): an Andean gym chain's check-ins per day by club (six: three in Bogotá, 22%, 18%
    and 15%, Medellín 15%, two in Lima, 17% and 13%, in an order set by the seed), the Colombian clubs on Colombia's
    holidays (the `holidays` package's CO, the estate's calendar: its Monday holidays under the Emiliani law) and
    the Lima clubs on Peru's (PE, configured by the owner as their own calendar: Fiestas Patrias, Santa Rosa, San
    Pedro y San Pablo on its day). By weekday from Monday x1.15, 1.1, 1.05, 1.0, 0.85, 0.65, 0.4 (resolve fades
    through the week); a club's holiday x0.45 (short hours); the Saturday and Sunday of a long weekend (the club's
    country's Monday or Friday a holiday: the puentes) x0.8, members out of town. In no calendar: the year-end
    holidays (15 December to 1 January: Colombia x0.7, Lima from the 20th x0.8), January's resolutions (+40% on 2
    January, fading over weeks), Lima's beach season (January to March, the Lima clubs' weekends x0.6). The
    Miraflores club reopens after its expansion on 4 August 2025 (+35% at that club, accepted by the owner as a
    shift). The Chapinero club's turnstile feed stopped at noon on 15 October 2024 (x0.45 there, unlabelled, history
    only). Poisson counts with 5% extra noise per club; +6% a year. From 1 January 2024: 400 days read, to the end
    of January 2026 evaluated."""
    rng = random.Random(seed)
    colombia, peru = HolidayCalendar(country="CO"), HolidayCalendar(country="PE")
    # Bogotá (Chapinero, Usaquén, Salitre), Medellín, Lima (Miraflores, San Isidro)
    clubs = _unequal(rng, [0.22, 0.18, 0.15, 0.15, 0.17, 0.13])
    lima = {clubs.index(0.17), clubs.index(0.13)}
    miraflores, chapinero = clubs.index(0.17), clubs.index(0.22)
    calendars: list[HolidayCalendar | None] = [peru if g in lima else None for g in range(len(clubs))]
    expansion, turnstile = date(2025, 8, 4), date(2024, 10, 15)
    start, n = date(2024, 1, 1), 762
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        since_new_year = (d - date(d.year, 1, 2)).days
        resolutions = 1 + _RESOLUTIONS * math.exp(-since_new_year / 25) if since_new_year >= 0 else 1.0
        level = 9_000.0 * 1.06 ** (i / 365.25) * _GYM_WEEK[d.weekday()] * resolutions
        groups = []
        for g, s in enumerate(clubs):
            own = peru if g in lima else colombia
            f = 0.45 if own.name(d) else 0.8 if _long_weekend(own, d) else 1.0
            if (d.month == 12 and d.day >= (20 if g in lima else 15)) or (d.month, d.day) == (1, 1):
                f *= 0.8 if g in lima else 0.7
            if g in lima and d.month <= 3 and d.weekday() >= 5:
                f *= 0.6
            f *= 1.35 if g == miraflores and d >= expansion else 1.0
            f *= 0.45 if g == chapinero and d == turnstile else 1.0
            groups.append(_poisson(rng, level * s * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, groups))
        if d == turnstile:
            incidents.add(at)
        if colombia.name(d) or peru.name(d):
            cats[at] = "holiday"
        elif _long_weekend(colombia, d) or _long_weekend(peru, d):
            cats[at] = "long_weekend"
        elif d.month == 12 and d.day >= 15:
            cats[at] = "year_end"
        elif since_new_year >= 0 and since_new_year < 45:
            cats[at] = "resolutions"
        elif d.month <= 3 and d.weekday() >= 5:
            cats[at] = "beach_season"
    shift = datetime(expansion.year, expansion.month, expansion.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("checkins_co_pe", "day", series, 400, colombia, cats, [shift], incidents=incidents,
                  group_calendars=calendars)


# The eighteenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (four, five, three, six)

# a Philippine pawnshop chain's remittance pay-outs per local branch hour against the busiest: branches open
# Monday to Saturday 08:00-18:59 (a six-day week), the morning queue at 10:00, a lunch dip; on Sundays and
# holidays only the mall branches open, 10:00-17:59 (no rows outside these hours: no partition)
_PAWNSHOP_WEEKDAY = {8: 0.55, 9: 0.85, 10: 1.0, 11: 0.95, 12: 0.75, 13: 0.8, 14: 0.85, 15: 0.8, 16: 0.7, 17: 0.55,
                     18: 0.35}
_PAWNSHOP_MALLS = {10: 0.2, 11: 0.26, 12: 0.3, 13: 0.3, 14: 0.28, 15: 0.25, 16: 0.21, 17: 0.15}
# tropical cyclone wind signal No. 3 over the Visayas (in no calendar): the region's branches closed from the
# first hour to the last (local), reopening the next hour with the queue that waited
_VISAYAS_SIGNAL = (datetime(2025, 12, 17, 12), datetime(2025, 12, 18, 12))
_CHRISTMAS_RUSH = 0.35  # December's remittances from abroad climb from the 1st to +35% by the 23rd (in no calendar)


def remittances_manila_hourly(seed: int) -> Estate:
    """Blind (eighteenth round): a Philippine pawnshop chain's remittance pay-outs (cash pick-ups of money sent
    from abroad and from other provinces) per local branch hour by region (four: Metro Manila 48%, the rest of
    Luzon 30%, the Visayas 15%, Mindanao 7%, in an order set by the seed), in Asia/Manila (UTC+8, no daylight
    saving), on the Philippines' holidays (the `holidays` package's PH: Bonifacio Day, a Sunday, and the Immaculate
    Conception, Monday 8 December 2025). A six-day week: Monday to Saturday 08:00-18:59 (Monday x1.15, the
    weekend's transfers from abroad; Saturday x1.1); on Sundays and holidays only the mall branches, 10:00-17:59, at
    about a quarter of a weekday (holidays x1.3 of a Sunday). In no calendar: December's Christmas remittances from
    overseas workers climbing from the 1st (+35% by the 23rd); the 13th-month pay most employers release with the
    15 December payroll, sent home at once (the provinces' pick-ups x1.45 from noon on the 15th and all the 16th,
    Metro Manila x1.1); the ordinary paydays (the 15th and the month's last working day) x1.12 in the provinces;
    tropical cyclone signal No. 3 over the Visayas from noon on Wednesday 17 December to noon the next day (the
    region's branches closed: no rows there), its reopening afternoon x1.6 and the Friday x1.25. The chain takes
    over a closed rival's Mindanao branches on Wednesday 10 December at 08:00 (+45% in Mindanao, accepted by the
    owner as a shift). The core system was down on Tuesday 25 November 10:00-12:59 (x0.15 everywhere, unlabelled,
    history only). Poisson counts with 5% extra noise per hour and region; +0.05% a day. The local days 8 to 21
    December 2025 evaluated, from 10 November read."""
    rng = random.Random(seed)
    zone = "Asia/Manila"
    cal = HolidayCalendar(country="PH")
    tz = ZoneInfo(zone)
    regions = _unequal(rng, [0.48, 0.30, 0.15, 0.07])
    manila, visayas, mindanao = regions.index(0.48), regions.index(0.15), regions.index(0.07)
    start, first, end = date(2025, 11, 10), date(2025, 12, 8), date(2025, 12, 21)
    takeover = _utc_hour(datetime(2025, 12, 10, 8), tz)
    outage = (datetime(2025, 11, 25, 10), datetime(2025, 11, 25, 12))
    paydays = {date(2025, 11, 14), date(2025, 11, 28), date(2025, 12, 15)}  # the 15th and the last, on a weekday
    series, cats, incidents = [], {}, set()
    d = start
    while d <= end:
        malls_only = d.weekday() == 6 or bool(cal.name(d))
        hours = _PAWNSHOP_MALLS if malls_only else _PAWNSHOP_WEEKDAY
        day = (1.3 if malls_only and d.weekday() != 6 else 1.15 if d.weekday() == 0
               else 1.1 if d.weekday() == 5 else 1.0)
        rush = 1 + _CHRISTMAS_RUSH * min(max((d - date(2025, 12, 1)).days / 22, 0.0), 1.0)
        for h, shape in hours.items():
            local = datetime(d.year, d.month, d.day, h)
            stamp = _utc_hour(local, tz)
            mean = 14_000.0 * shape * day * rush * math.exp(0.0005 * (d - start).days)
            thirteenth = (d == date(2025, 12, 15) and h >= 12) or d == date(2025, 12, 16)
            groups = []
            for g, s in enumerate(regions):
                f = 1.0
                if thirteenth:
                    f *= 1.1 if g == manila else 1.45
                elif d in paydays and g != manila:
                    f *= 1.12
                if g == visayas:
                    if _VISAYAS_SIGNAL[0] <= local <= _VISAYAS_SIGNAL[1]:
                        f = 0.0
                    elif d == _VISAYAS_SIGNAL[1].date():
                        f *= 1.6
                    elif d == _VISAYAS_SIGNAL[1].date() + timedelta(days=1):
                        f *= 1.25
                f *= 1.45 if g == mindanao and stamp >= takeover else 1.0
                f *= 0.15 if outage[0] <= local <= outage[1] else 1.0
                groups.append(_poisson(rng, mean * s * f * math.exp(rng.gauss(0, 0.05))))
            series.append((stamp, groups))
            if outage[0] <= local <= outage[1]:
                incidents.add(stamp)
            if cal.name(d):
                cats[stamp] = "holiday"
            elif _VISAYAS_SIGNAL[0].date() <= d <= _VISAYAS_SIGNAL[1].date() + timedelta(days=1) and (
                    local >= _VISAYAS_SIGNAL[0]):
                cats[stamp] = "typhoon"
            elif thirteenth:
                cats[stamp] = "thirteenth_month"
            elif d.weekday() == 6:
                cats[stamp] = "sunday"
        d += timedelta(days=1)
    _mark_after_shift(cats, [takeover], timedelta(hours=1), 24 * 3, first=1)
    tail = _utc_hour(datetime(first.year, first.month, first.day, 10), tz)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail)
    return Estate("remittances_manila_hourly", "hour", series, evaluate_from, cal, cats, [takeover], timezone=zone,
                  incidents=incidents)


# Poland's trading Sundays (niedziele handlowe): the few Sundays a year the shops may open under the 2018 Sunday
# trading ban (the last Sunday of January, April, June and August, Palm Sunday, and December's before Christmas:
# two until 2024, three from 2025). In no calendar: the `holidays` package holds public holidays, not these
_TRADING_SUNDAYS = {date(2024, 1, 28), date(2024, 3, 24), date(2024, 4, 28), date(2024, 6, 30), date(2024, 8, 25),
                    date(2024, 12, 15), date(2024, 12, 22), date(2025, 1, 26), date(2025, 4, 13), date(2025, 4, 27),
                    date(2025, 6, 29), date(2025, 8, 31), date(2025, 12, 7), date(2025, 12, 14), date(2025, 12, 21),
                    date(2026, 1, 25), date(2026, 3, 29), date(2026, 4, 26), date(2026, 6, 28), date(2026, 8, 30)}
# each format's receipts by month against its year's mean (read at mid-month, straight lines between): the DIY
# spring, the garden centres' April-May, All Saints' candles and Christmas trees, the builders' winter lull
_DIY_SEASONS = {
    "big_box": [0.72, 0.78, 0.95, 1.22, 1.28, 1.15, 1.05, 1.0, 1.0, 0.95, 0.88, 0.85],
    "city": [0.8, 0.85, 0.95, 1.1, 1.12, 1.05, 1.0, 1.0, 1.0, 1.0, 0.98, 1.05],
    "garden": [0.2, 0.3, 0.85, 2.2, 2.4, 1.6, 1.0, 0.8, 0.8, 0.65, 0.5, 0.9],
    "trade": [0.6, 0.7, 0.95, 1.1, 1.12, 1.12, 1.1, 1.1, 1.1, 1.08, 1.0, 0.75],
    "online": [0.85, 0.85, 0.95, 1.2, 1.2, 1.05, 0.95, 0.95, 0.95, 0.95, 1.0, 1.0],
}
# each format's receipts by weekday (Monday first): the stores' Friday and Saturday, closed on Sundays under the
# trading ban; the builders' counters on working days; online orders busiest on Sunday, when the stores are shut
_DIY_WEEK = {
    "big_box": [0.95, 0.9, 0.9, 0.95, 1.1, 1.45, 0.0],
    "city": [1.0, 0.95, 0.95, 1.0, 1.1, 1.3, 0.0],
    "garden": [0.85, 0.8, 0.85, 0.9, 1.1, 1.7, 0.0],
    "trade": [1.1, 1.05, 1.05, 1.05, 1.0, 0.45, 0.0],
    "online": [1.15, 1.0, 0.95, 0.95, 0.85, 0.8, 1.3],
}
_ALL_SAINTS_RUN_UP = 6  # days before All Saints' Day (1 November) the garden centres sell grave candles and flowers


def diy_pl(seed: int) -> Estate:
    """Blind (eighteenth round): a Polish DIY and home-improvement chain's receipts per day by format (five:
    big-box stores 52%, compact city stores 22%, garden centres 12%, trade counters for builders 10%, online
    orders 4% (13 times smaller than the big boxes), in an order set by the seed), on Poland's holidays (the
    `holidays` package's PL; Christmas Eve a holiday from 2025). A six-day week: the Sunday trading ban closes every
    store on Sundays (no receipts but online orders, which peak then) except on the trading Sundays (in no calendar:
    the stores at a Saturday's shape x1.1, the builders' counters closed). Stores closed on public holidays (online x0.7); Holy Saturday and New Year's Eve (and Christmas
    Eve in 2024, before it became a holiday) close at 14:00, x0.55. Each format's own year (`_DIY_SEASONS`). In no
    calendar: the majówka (the working days from 27 April to 2 May but the holidays: grills, paint and plants x1.35
    in the stores and garden centres, the builders' counters x0.5, crews off); All Saints' run-up (the garden
    centres x2.2 the six days before 1 November: grave candles and chrysanthemums); the first warm Saturday of each
    spring (a day in April drawn per year: garden centres x1.8, big boxes x1.2). The chain takes over a departing
    rival's city stores on Monday 1 September 2025 (+40% in the city format, accepted by the owner as a shift). The
    point-of-sale export loaded a third of the big boxes' receipts on Saturday 16 November 2024 (unlabelled, history
    only). Poisson counts with 4% extra noise per format; +3% a year. From 1 January 2024: 400 days read, to the end
    of January 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PL")
    formats = _unequal(rng, ["big_box", "city", "garden", "trade", "online"])
    share = {"big_box": 0.52, "city": 0.22, "garden": 0.12, "trade": 0.10, "online": 0.04}
    # the first warm Saturday: one of April's, drawn per year (Holy Saturday's shops close at 14:00: not that one)
    warm = {y: rng.choice([s for s in (date(y, 4, 1) + timedelta(days=k) for k in range(30))
                           if s.weekday() == 5 and s != _easter(y) - timedelta(days=1)]) for y in range(2024, 2027)}
    takeover, pos_export = date(2025, 9, 1), date(2024, 11, 16)
    start, n = date(2024, 1, 1), 762
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        holiday = bool(cal.name(d))
        short = not holiday and (d == _easter(d.year) - timedelta(days=1) or (d.month, d.day) in ((12, 31), (12, 24)))
        trading_sunday = d in _TRADING_SUNDAYS
        majowka = not holiday and date(d.year, 4, 27) <= d <= date(d.year, 5, 2) and d.weekday() != 6
        candles = 1 <= (date(d.year, 11, 1) - d).days <= _ALL_SAINTS_RUN_UP
        level = 40_000.0 * 1.03 ** (i / 365.25)
        groups = []
        for k in formats:
            if k == "online":
                f = _DIY_WEEK[k][d.weekday()] * (0.7 if holiday else 1.0)
            elif holiday or (d.weekday() == 6 and not trading_sunday) or (trading_sunday and k == "trade"):
                f = 0.0
            else:
                f = _DIY_WEEK[k][5] * 1.1 if trading_sunday else _DIY_WEEK[k][d.weekday()]
                f *= 0.55 if short else 1.0
                if majowka:
                    f *= 0.5 if k == "trade" else 1.35 if k in ("big_box", "city", "garden") else 1.0
                if candles and k == "garden":
                    f *= 2.2
                if d == warm[d.year]:
                    f *= 1.8 if k == "garden" else 1.2 if k == "big_box" else 1.0
                f *= 1.4 if k == "city" and d >= takeover else 1.0
                f *= 0.33 if k == "big_box" and d == pos_export else 1.0
            mean = level * share[k] * _season_at(_DIY_SEASONS[k], d) * f
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.04))) if mean > 0 else 0.0)
        series.append((at, groups))
        if d == pos_export:
            incidents.add(at)
        if holiday or short:
            cats[at] = "holiday"
        elif trading_sunday:
            cats[at] = "trading_sunday"
        elif majowka:
            cats[at] = "majowka"
        elif candles:
            cats[at] = "all_saints_run_up"
        elif d == warm[d.year]:
            cats[at] = "first_warm_saturday"
    shift = datetime(takeover.year, takeover.month, takeover.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("diy_pl", "day", series, 400, cal, cats, [shift], incidents=incidents)


# each airport's passenger screenings per week by month against its year's mean (read at mid-month, straight lines
# between): the hub's summer, Orlando's winter sun and theme-park summer with a quiet September, Burlington's ski
# winters, mud season (April) and lake summers
_AIRPORT_SEASONS = {
    "ATL": [0.86, 0.9, 1.0, 1.0, 1.05, 1.12, 1.12, 1.02, 0.93, 0.98, 0.97, 0.98],
    "MCO": [0.98, 1.05, 1.05, 1.05, 0.95, 1.05, 1.06, 0.88, 0.76, 0.9, 0.95, 1.05],
    "BTV": [0.95, 1.05, 1.02, 0.72, 0.8, 1.05, 1.15, 1.15, 1.0, 1.0, 0.75, 0.95],
}
_AIRPORT_WEEK = {"ATL": 560_000.0, "MCO": 336_000.0, "BTV": 12_000.0}  # an ordinary week's screenings
_AIRPORT_GROWTH = {"ATL": 0.03, "MCO": 0.05, "BTV": 0.01}  # a year's traffic growth
# the holiday weeks' travel by airport (a week holding the holiday): Thanksgiving's and Christmas's family trips
# favour the leisure airports; a Monday holiday's long weekend; Presidents' Day week is New England's February
# school vacation (Burlington's ski week, families to Florida)
_AIRPORT_HOLIDAYS = {
    "Thanksgiving": {"ATL": 1.04, "MCO": 1.12, "BTV": 1.2},
    "Christmas": {"ATL": 0.98, "MCO": 1.2, "BTV": 1.3},
    "New Year": {"ATL": 1.0, "MCO": 1.15, "BTV": 1.25},
    "Washington": {"ATL": 1.04, "MCO": 1.1, "BTV": 1.4},
    "Independence Day": {"ATL": 0.97, "MCO": 1.03, "BTV": 1.05},
}
_SPRING_BREAK = range(10, 15)  # ISO weeks of the colleges' and schools' spring breaks (in no calendar)
_FOLIAGE = range(39, 43)  # ISO weeks of Vermont's fall foliage (in no calendar)
# ISO weeks of 2026 with FIFA World Cup matches in Atlanta (15 June to 15 July; in no calendar)
_WORLD_CUP_2026 = range(25, 30)


def screenings_us_weekly(seed: int) -> Estate:
    """Blind (eighteenth round): US checkpoint passenger screenings per ISO week (a partition per Monday) by airport
    (three: Atlanta, the hub, 560,000 a week; Orlando, leisure, 336,000; Burlington, Vermont, 12,000: 47 times
    smaller than the hub; in an order set by the seed), on US federal holidays (the `holidays` package's US). Each
    airport's own year (`_AIRPORT_SEASONS`). A week holding a federal holiday: Thanksgiving's x1.04 at the hub, x1.12
    at Orlando, x1.2 at Burlington, and the week after it x0.92 everywhere; Christmas's and New Year's the leisure
    airports up to x1.3; Presidents' Day week New England's February vacation (Burlington x1.4, Orlando x1.1); the
    other Monday holidays' long weekends x1.04; July 4th's week x0.97 at the hub; Juneteenth and Veterans Day no
    change. In no calendar: spring breaks (ISO weeks 10-14: Orlando x1.22, the hub x1.05), Vermont's fall foliage
    (weeks 39-42: Burlington x1.35), the 2026 World Cup's matches in Atlanta (weeks 25-29 of 2026: the hub x1.07,
    Orlando x1.02). In the history: Hurricane Milton closing Orlando (week 41 of 2024, x0.6), the FAA's flight cuts in
    the 2025 shutdown (weeks 45-46 of 2025, the hub and Orlando x0.95), and the CrowdStrike outage's cancellations
    (week 29 of 2024: the hub x0.85, the others x0.96; unlabelled, an incident). A low-cost carrier opens a base at
    Orlando on Monday 13 April 2026 (+18% there, accepted by the owner as a shift). 3% noise per airport; growth per
    airport (`_AIRPORT_GROWTH`). From ISO week 1 of 2023: three years read, 2026's weeks 1-52 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US")
    airports = _unequal(rng, ["ATL", "MCO", "BTV"])
    base = date(2026, 4, 13)
    crowdstrike, milton, shutdown = (2024, 29), (2024, 41), {(2025, 45), (2025, 46)}
    start, n = date(2023, 1, 2), 208
    series, cats, incidents = [], {}, set()
    after_thanksgiving = False
    for i in range(n):
        monday = start + timedelta(weeks=i)
        at = datetime(monday.year, monday.month, monday.day)
        year, w = monday.isocalendar()[:2]
        names = {cal.name(monday + timedelta(days=k)) for k in range(7)} - {""}
        travel = [by_airport for key, by_airport in _AIRPORT_HOLIDAYS.items() if any(name.startswith(key) for name in names)]
        monday_holiday = bool(cal.name(monday)) and not travel
        groups = []
        for a in airports:
            f = _season_at(_AIRPORT_SEASONS[a], monday + timedelta(days=3))
            f *= math.prod(t[a] for t in travel) * (1.04 if monday_holiday else 1.0) * (0.92 if after_thanksgiving else 1.0)
            if w in _SPRING_BREAK:
                f *= {"ATL": 1.05, "MCO": 1.22, "BTV": 1.0}[a]
            if w in _FOLIAGE and a == "BTV":
                f *= 1.35
            if year == 2026 and w in _WORLD_CUP_2026:
                f *= {"ATL": 1.07, "MCO": 1.02, "BTV": 1.0}[a]
            if (year, w) == crowdstrike:
                f *= 0.85 if a == "ATL" else 0.96
            f *= 0.6 if (year, w) == milton and a == "MCO" else 1.0
            f *= 0.95 if (year, w) in shutdown and a != "BTV" else 1.0
            f *= 1.18 if a == "MCO" and monday >= base else 1.0
            groups.append(_noisy(rng, _AIRPORT_WEEK[a] * (1 + _AIRPORT_GROWTH[a]) ** (i / 52.18) * f, 0.03))
        series.append((at, groups))
        if (year, w) == crowdstrike:
            incidents.add(at)
        if names or after_thanksgiving:
            cats[at] = "holiday"
        elif w in _SPRING_BREAK:
            cats[at] = "spring_break"
        elif w in _FOLIAGE:
            cats[at] = "foliage"
        elif year == 2026 and w in _WORLD_CUP_2026:
            cats[at] = "world_cup"
        after_thanksgiving = any("Thanksgiving" in name for name in names)
    shift = datetime(base.year, base.month, base.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 8, first=1)
    return Estate("screenings_us_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Strait of Gibraltar ferry operator's ports: passengers' months against the year's mean (read at mid-month,
# straight lines between): the Tarifa-Tangier fast ferries carry day-trippers (a tourist summer), the car ferries
# a flatter year with Christmas visits home
_STRAIT_TOURIST = [0.6, 0.65, 0.85, 1.1, 1.15, 1.25, 1.5, 1.6, 1.25, 1.0, 0.75, 0.7]
_STRAIT_CARS = [0.8, 0.8, 0.9, 1.0, 1.0, 1.05, 1.1, 1.1, 1.05, 0.95, 0.85, 0.95]
_STRAIT_WEEK = [1.0, 0.88, 0.88, 0.95, 1.15, 1.1, 1.1]  # Monday first: weekend crossings
# days the levante (the Strait's easterly gale, in no calendar) closed Tarifa's port and Tangier's old port to the
# fast ferries: their passengers bussed to Algeciras and Tanger Med
_LEVANTE = [date(2024, 1, 22), date(2024, 3, 4), date(2024, 3, 5), date(2024, 7, 9), date(2024, 7, 10),
            date(2024, 8, 13), date(2024, 10, 21), date(2024, 12, 2), date(2025, 2, 17), date(2025, 4, 3),
            date(2025, 6, 24), date(2025, 7, 30), date(2025, 8, 12), date(2025, 8, 13), date(2025, 9, 8),
            date(2025, 11, 24), date(2026, 1, 13)]
_OPE = ((6, 15), (9, 15))  # Operación Paso del Estrecho, the summer crossing of Moroccans living in Europe


def ferries_es_ma(seed: int) -> Estate:
    """Blind (eighteenth round): a Strait of Gibraltar ferry operator's boarded passengers per day by departure port
    (six: Algeciras 30%, Tarifa 12%, Almería 8% in Spain; Tanger Med 30%, Tanger Ville 12%, Nador 8% in Morocco; in
    an order set by the seed), the Spanish ports on Andalusia's holidays (the `holidays` package's ES, subdivision
    AN: the estate's calendar) and the Moroccan ports on Morocco's (MA, configured by the owner as their own
    calendar: Throne Day, the Green March, both Eids). Weekend crossings (`_STRAIT_WEEK`); Tarifa and Tanger Ville,
    the day-trippers' fast ferries, a tourist summer (`_STRAIT_TOURIST`), the car ferries a flatter year. A port's
    holiday: Spain's x1.2 from the Spanish ports (long weekends in Morocco), Maundy Thursday and Good Friday x1.6
    (Holy Week trips); Morocco's x0.85 from its ports. In no calendar: the return from Holy Week (Easter Sunday and
    Monday x1.5 from the Moroccan ports); the summer crossing of Moroccans living in Europe driving home (the
    outbound car ferries from Spain rising to x3.6 around a day near 1 August drawn per year, the return from
    Morocco to x3.6 around a day near 26 August, Tarifa and Tanger Ville a third of that; its clean days from 15 June
    to 15 September, the Operación Paso del Estrecho's, counted as "ope");
    levante gales (`_LEVANTE`: Tarifa and Tanger Ville x0.25, their passengers bussed to Algeciras and Tanger Med,
    the next day x1.3). The operator adds a second ship on Almería-Nador on Wednesday 1 October 2025 (x1.5 at both
    ports, accepted by the owner as a shift). The booking system's export loaded half of Saturday 9 March 2024
    (unlabelled, history only). Poisson counts with 6% extra noise per port; +4% a year. From 1 January 2024: 400
    days read, to the end of January 2026 evaluated."""
    rng = random.Random(seed)
    spain, morocco = HolidayCalendar(country="ES", subdiv="AN"), HolidayCalendar(country="MA")
    ports = _unequal(rng, ["Algeciras", "Tarifa", "Almeria", "Tanger Med", "Tanger Ville", "Nador"])
    share = {"Algeciras": 0.30, "Tarifa": 0.12, "Almeria": 0.08, "Tanger Med": 0.30, "Tanger Ville": 0.12,
             "Nador": 0.08}
    moroccan = {"Tanger Med", "Tanger Ville", "Nador"}
    fast = {"Tarifa": "Algeciras", "Tanger Ville": "Tanger Med"}  # a closed fast-ferry port -> where its buses go
    peaks = {y: (date(y, 7, 28) + timedelta(days=rng.randint(0, 8)), date(y, 8, 22) + timedelta(days=rng.randint(0, 8)))
             for y in range(2024, 2027)}
    second_ship, export = date(2025, 10, 1), date(2024, 3, 9)
    start, n = date(2024, 1, 1), 762
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        easter = _easter(d.year)
        outbound, back = peaks[d.year]
        ope = _OPE[0] <= (d.month, d.day) <= _OPE[1]
        levante, after_levante = d in _LEVANTE, d - timedelta(days=1) in _LEVANTE and d not in _LEVANTE
        level = 9_000.0 * 1.04 ** (i / 365.25) * _STRAIT_WEEK[d.weekday()] * (0.5 if d == export else 1.0)
        means = {}
        for p, port_share in share.items():
            own = morocco if p in moroccan else spain
            f = _season_at(_STRAIT_TOURIST if p in fast else _STRAIT_CARS, d)
            name = own.name(d)
            if name:
                f *= (0.85 if p in moroccan else 1.6 if "Thursday" in name or "Good Friday" in name else 1.2)
            if p in moroccan and d in (easter, easter + timedelta(days=1)):
                f *= 1.5
            # the summer crossing's wave (the operation's dates name it; the travel does not stop on them)
            peak = back if p in moroccan else outbound
            width = 11 if p in moroccan else 16  # the return is the sharper (the end of the holidays)
            f *= 1 + (0.87 if p in fast else 2.6) * math.exp(-0.5 * ((d - peak).days / width) ** 2)
            f *= 1.5 if p in ("Almeria", "Nador") and d >= second_ship else 1.0
            f *= 1.3 if after_levante and p in fast else 1.0
            means[p] = level * port_share * f
        if levante:  # the fast ferries' passengers bussed to the car-ferry port on the same side
            for p, bus_to in fast.items():
                means[bus_to] += 0.75 * 0.9 * means[p]
                means[p] *= 0.25
        series.append((at, [_poisson(rng, means[p] * math.exp(rng.gauss(0, 0.06))) for p in ports]))
        if d == export:
            incidents.add(at)
        if levante or after_levante:
            cats[at] = "levante"
        elif spain.name(d) or morocco.name(d):
            cats[at] = "holiday"
        elif d in (easter, easter + timedelta(days=1)):
            cats[at] = "easter_return"
        elif ope:
            cats[at] = "ope"
    shift = datetime(second_ship.year, second_ship.month, second_ship.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    calendars: list[HolidayCalendar | None] = [morocco if p in moroccan else None for p in ports]
    return Estate("ferries_es_ma", "day", series, 400, spain, cats, [shift], incidents=incidents,
                  group_calendars=calendars)


# The nineteenth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (three, four, three, four)

# a Prague bar group's card payments by local hour of its night (18:00 to 03:59): each venue type's shape against
# its busiest hour; the night's hours after midnight belong to the evening that began it
_PRAGUE_HOURS = {
    "old_town": {18: 0.3, 19: 0.5, 20: 0.75, 21: 0.95, 22: 1.0, 23: 0.95, 0: 0.8, 1: 0.6, 2: 0.4, 3: 0.2},
    "pubs": {18: 0.6, 19: 0.9, 20: 1.0, 21: 1.0, 22: 0.85, 23: 0.6, 0: 0.3, 1: 0.1, 2: 0.0, 3: 0.0},
    "club": {18: 0.0, 19: 0.0, 20: 0.0, 21: 0.0, 22: 0.3, 23: 0.7, 0: 1.0, 1: 1.0, 2: 0.8, 3: 0.5},
}
# each venue type's night by the weekday the evening begins on (Monday first): the Old Town's tourists come every
# night, the locals' pubs fill on Thursday and Friday, the club opens Thursday to Saturday only
_PRAGUE_WEEK = {
    "old_town": [0.7, 0.7, 0.8, 0.9, 1.2, 1.3, 0.6],
    "pubs": [0.6, 0.7, 0.8, 0.95, 1.25, 1.1, 0.5],
    "club": [0.0, 0.0, 0.0, 0.6, 1.2, 1.4, 0.0],
}
_ST_MARTIN = date(2026, 11, 11)  # St Martin's young wine opened at 11:11 (svatomartinské víno; in no calendar)
_PRAGUE_DERBY = date(2026, 11, 8)  # a Sunday evening Prague derby on the pubs' screens (kick-off 18:00; in no calendar)


def bars_prague_hourly(seed: int) -> Estate:
    """Blind (nineteenth round): a Prague bar group's card payments per local hour of the night by venue type
    (three: Old Town cocktail and wine bars 45%, Žižkov pubs 35%, a club 20%, in an order set by the seed), in
    Europe/Prague (daylight saving ends on Sunday 25 October 2026 in the history: the night of the 24th has eleven
    hours, 02:00 twice), on Czechia's holidays (the `holidays` package's CZ). A night business: open 18:00-03:59, so
    each night crosses midnight and its hours after midnight are the evening before's (no partitions from 04:00 to
    17:59). Each type's hours (`_PRAGUE_HOURS`: the pubs close at 02:00, the club opens at 22:00) and nights
    (`_PRAGUE_WEEK`: the club only Thursday to Saturday). The eve of a public holiday is a Friday night (the club
    opens; Monday 16 November before the 17th); a holiday's own night x0.85 (work the next day); the hours after
    midnight of Friday, Saturday and holiday-eve nights x1.3. In no calendar: St Martin's young wine on Wednesday 11
    November (the Old Town's wine bars x1.6 and the pubs x1.2 until midnight), a Sunday evening derby on 8 November
    (the pubs x2.0 from 18:00 to 20:59, x1.3 after); the tourists thin out into November (the Old Town -0.5% a
    night). The group takes over a neighbouring Žižkov pub from Friday 13 November 18:00 (+35% in the pubs, accepted
    by the owner as a shift). The card acquirer was down on Saturday 17 October 22:00-00:59 (x0.25 everywhere, cash
    only; unlabelled, history only). Poisson counts with 6% extra noise per hour and type. The nights of 5 to 18
    November 2026 evaluated, from 8 October read."""
    rng = random.Random(seed)
    zone = "Europe/Prague"
    cal = HolidayCalendar(country="CZ")
    tz = ZoneInfo(zone)
    venues = _unequal(rng, ["old_town", "pubs", "club"])
    share = {"old_town": 0.45, "pubs": 0.35, "club": 0.2}
    start, first, last = date(2026, 10, 8), date(2026, 11, 5), date(2026, 11, 18)
    takeover = _utc_hour(datetime(2026, 11, 13, 18), tz)
    outage = (_utc_hour(datetime(2026, 10, 17, 22), tz), _utc_hour(datetime(2026, 10, 18, 0), tz))
    after_last = last + timedelta(days=1)
    at = _utc_hour(datetime(start.year, start.month, start.day, 18), tz)
    end = _utc_hour(datetime(after_last.year, after_last.month, after_last.day, 3), tz)
    series, cats, incidents = [], {}, set()
    while at <= end:
        local = _local_hour(at, tz)
        h = local.hour
        if 4 <= h < 18:
            at += timedelta(hours=1)
            continue
        night = local.date() - timedelta(days=1 if h < 18 else 0)
        holiday, eve = bool(cal.name(night)), bool(cal.name(night + timedelta(days=1))) and not cal.name(night)
        weekday = 4 if eve and night.weekday() not in (4, 5) else night.weekday()
        late = h < 4 and weekday in (4, 5)
        groups = []
        for v in venues:
            f = _PRAGUE_HOURS[v][h] * _PRAGUE_WEEK[v][weekday] * (1.3 if late else 1.0) * (0.85 if holiday else 1.0)
            if night == _ST_MARTIN and h >= 18:
                f *= 1.6 if v == "old_town" else 1.2 if v == "pubs" else 1.0
            if night == _PRAGUE_DERBY and v == "pubs":
                f *= 2.0 if 18 <= h < 21 else 1.3
            f *= 0.995 ** (night - start).days if v == "old_town" else 1.0
            f *= 1.35 if v == "pubs" and at >= takeover else 1.0
            f *= 0.25 if outage[0] <= at <= outage[1] else 1.0
            mean = 900.0 * share[v] * f
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.06))) if mean > 0 else 0.0)
        series.append((at, groups))
        if outage[0] <= at <= outage[1]:
            incidents.add(at)
        if holiday:
            cats[at] = "holiday"
        elif eve:
            cats[at] = "holiday_eve"
        elif night == _ST_MARTIN:
            cats[at] = "st_martin"
        elif night == _PRAGUE_DERBY:
            cats[at] = "derby"
        at += timedelta(hours=1)
    _mark_after_shift(cats, [takeover], timedelta(hours=1), 24 * 3, first=1)
    tail = _utc_hour(datetime(first.year, first.month, first.day, 18), tz)
    evaluate_from = next(k for k, (s, _) in enumerate(series) if s >= tail)
    return Estate("bars_prague_hourly", "hour", series, evaluate_from, cal, cats, [takeover], timezone=zone,
                  incidents=incidents)


# an Austrian pharmacy chain's prescriptions by month against the year's mean, per federal state (read at
# mid-month, straight lines between): the lowland states' winter colds and summer holidays away; Tyrol's ski
# winters and hiking summers (tourists' prescriptions)
_PHARMACY_SEASONS = {
    "vienna": [1.1, 1.1, 1.05, 1.0, 0.97, 0.93, 0.86, 0.84, 0.97, 1.02, 1.05, 1.08],
    "lower_austria": [1.1, 1.08, 1.05, 1.0, 0.98, 0.95, 0.9, 0.88, 0.98, 1.02, 1.03, 1.05],
    "styria": [1.1, 1.1, 1.04, 1.0, 0.98, 0.95, 0.9, 0.88, 0.97, 1.02, 1.03, 1.05],
    "tyrol": [1.3, 1.35, 1.25, 0.95, 0.8, 0.9, 1.05, 1.05, 0.9, 0.8, 0.85, 1.15],
}
_PHARMACY_WEEK = [1.2, 1.0, 0.95, 1.0, 1.05, 0.35, 0.04]  # Monday first: Saturday mornings, Sunday's on-duty pharmacy
# each state's one-week semester break in February (Semesterferien: staggered by state; in no calendar): families
# away from the lowlands, skiers in Tyrol
_SEMESTER_BREAKS = {
    "vienna": [(date(2024, 2, 5), date(2024, 2, 10)), (date(2025, 2, 3), date(2025, 2, 8))],
    "lower_austria": [(date(2024, 2, 5), date(2024, 2, 10)), (date(2025, 2, 3), date(2025, 2, 8))],
    "tyrol": [(date(2024, 2, 12), date(2024, 2, 17)), (date(2025, 2, 10), date(2025, 2, 15))],
    "styria": [(date(2024, 2, 19), date(2024, 2, 24)), (date(2025, 2, 17), date(2025, 2, 22))],
}
_FEE_RISE_RUN_UP = 15  # the prescription fee (Rezeptgebühr) rises each 1 January: chronic patients fill from 16 Dec


def pharmacies_at(seed: int) -> Estate:
    """Blind (nineteenth round): an Austrian pharmacy chain's prescriptions dispensed per day by federal state
    (four: Vienna 45%, Lower Austria 25%, Styria 18%, Tyrol 12%, in an order set by the seed), on Austria's holidays
    (the `holidays` package's AT). The chain's Tyrol branches open on Monday 2 September 2024, partway through the
    history: no rows before, then their patients come over a few weeks (a logistic climb, half by the end of the
    second week). Mondays x1.2 (the weekend's prescriptions), Saturday mornings x0.35, Sundays and holidays only the
    on-duty pharmacy (x0.04); 24 and 31 December close at noon (x0.5); the first working day after a holiday x1.2
    (counted as "holiday"). Each state's own year (`_PHARMACY_SEASONS`: Tyrol's tourist winters). In no calendar:
    the yearly rise of the prescription fee on 1 January (the working days from 16 December x1.2 as chronic patients
    fill early, the first fortnight of January x0.85); each state's semester break in February (`_SEMESTER_BREAKS`:
    the lowland states x0.85, Tyrol x1.2 with the skiers); the Zwickeltag (the Friday after Ascension and after
    Corpus Christi: doctors' practices closed, x0.7); the pollen season (a peak near a day in late April drawn per
    year, x1.15 at its height, 12 days wide). The chain takes over a closing competitor's patients in Graz on Monday
    6 October 2025 (+30% in Styria, accepted by the owner as a shift). The e-prescription service was down on
    Tuesday 14 May 2024 (x0.45 everywhere; unlabelled, history only). Poisson counts with 4% extra noise per state;
    +2% a year. From 1 January 2024: 400 days read, to the start of February 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AT")
    states = _unequal(rng, ["vienna", "lower_austria", "styria", "tyrol"])
    share = {"vienna": 0.45, "lower_austria": 0.25, "styria": 0.18, "tyrol": 0.12}
    pollen = {y: date(y, 4, 20) + timedelta(days=rng.randint(0, 10)) for y in range(2024, 2027)}
    opening, takeover, outage = date(2024, 9, 2), date(2025, 10, 6), date(2024, 5, 14)
    zwickel = {d + timedelta(days=1) for d, name in ((d, cal.name(d)) for d in
                                                     (date(2024, 1, 1) + timedelta(days=k) for k in range(800)))
               if name in ("Ascension Day", "Corpus Christi")}
    start, n = date(2024, 1, 1), 762
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        holiday = bool(cal.name(d))
        short = (d.month, d.day) in ((12, 24), (12, 31)) and not holiday
        yesterday = d - timedelta(days=1)
        # the first working day after a holiday catches up (a Zwickeltag's practices stay closed: not that one)
        after = not holiday and d.weekday() < 5 and bool(cal.name(yesterday)) and d not in zwickel
        stockpile = d.month == 12 and d.day > _FEE_RISE_RUN_UP and d.weekday() < 5 and not holiday and not short
        lull = d.month == 1 and d.day <= 14 and d.weekday() < 5 and not holiday
        pollen_lift = 0.15 * math.exp(-0.5 * ((d - pollen[d.year]).days / 12) ** 2)
        day = 0.04 if holiday else _PHARMACY_WEEK[d.weekday()] * (0.5 if short else 1.0) * (1.2 if after else 1.0)
        day *= 0.7 if d in zwickel else 1.0
        day *= 1.2 if stockpile else 0.85 if lull else 1.0
        day *= 0.45 if d == outage else 1.0
        level = 20_000.0 * 1.02 ** (i / 365.25) * (1 + pollen_lift)
        breaking = set()
        groups = []
        for s in states:
            f = day * _season_at(_PHARMACY_SEASONS[s], d)
            if any(a <= d <= b for a, b in _SEMESTER_BREAKS[s]):
                f *= 1.2 if s == "tyrol" else 0.85
                breaking.add(s)
            if s == "tyrol":
                f *= 0.0 if d < opening else 1 / (1 + math.exp(-((d - opening).days - 14) / 5))
            f *= 1.3 if s == "styria" and d >= takeover else 1.0
            mean = level * share[s] * f
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.04))) if mean > 0 else 0.0)
        series.append((at, groups))
        if d == outage:
            incidents.add(at)
        if d in zwickel:
            cats[at] = "zwickeltag"
        elif holiday or short or after:
            cats[at] = "holiday"
        elif stockpile or lull:
            cats[at] = "fee_rise"
        elif breaking:
            cats[at] = "semester_break"
        elif pollen_lift > 0.05:
            cats[at] = "pollen"
    shift = datetime(takeover.year, takeover.month, takeover.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("pharmacies_at", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Danish cinema chain's admissions by day of its film week (Monday first; the week runs Thursday to Wednesday,
# new films open on Thursdays): the multiplexes' weekends and cheap Tuesdays, the art-house cinemas' flatter week
_CINEMA_DAY = {
    "multiplex": [0.55, 0.75, 0.6, 0.8, 1.3, 1.7, 1.3],
    "provincial": [0.5, 0.75, 0.55, 0.75, 1.35, 1.8, 1.3],
    "art_house": [0.8, 0.9, 0.9, 1.0, 1.2, 1.2, 1.0],
}
_CINEMA_SEASONS = {  # by month against the year's mean (read at mid-month): dark winters fill cinemas, summers empty
    "multiplex": [1.2, 1.1, 1.0, 0.9, 0.8, 0.75, 0.9, 0.9, 0.85, 1.0, 1.05, 1.15],
    "provincial": [1.2, 1.1, 1.0, 0.9, 0.8, 0.75, 0.9, 0.9, 0.85, 1.0, 1.05, 1.15],
    "art_house": [1.1, 1.1, 1.05, 1.0, 0.9, 0.8, 0.75, 0.85, 1.05, 1.1, 1.05, 1.0],
}
_CINEMA_DAILY = {"multiplex": 9_000.0, "provincial": 6_000.0, "art_house": 1_500.0}  # an ordinary day's admissions
# the winter break (vinterferie, in no calendar): ISO week 7 in eastern Denmark (Copenhagen), week 8 in the west
_WINTER_BREAK = {"multiplex": 7, "provincial": 8, "art_house": 7}
_AUTUMN_BREAK = 42  # the autumn break (efterårsferie, ISO week 42 everywhere; in no calendar)


def cinemas_dk_weekly(seed: int) -> Estate:
    """Blind (nineteenth round): a Danish cinema chain's admissions per film week (Thursday to Wednesday, a
    partition per Thursday, as the trade counts them) by cinema type (three: Copenhagen multiplexes 9,000 a day,
    provincial cinemas in Jutland and Funen 6,000, art-house cinemas 1,500; in an order set by the seed), on
    Denmark's holidays (the `holidays` package's DK: Great Prayer Day abolished from 2024). A film week is the sum
    of its days (`_CINEMA_DAY`: cheap Tuesdays, busy weekends), so a break or holiday moves the week it overlaps by
    the days it holds. A holiday is a Sunday (x1.2 more at the multiplexes); Christmas Day and the second day x1.6
    (family films open on them); Christmas Eve x0.15 and New Year's Eve x0.3 (closed in the evening; in no
    calendar). Each type's year (`_CINEMA_SEASONS`). In no calendar: the winter break (ISO week 7 in the east, week
    8 in the west: the weekdays x2 at the multiplexes and provincial cinemas, children's matinees), the autumn break
    (week 42 everywhere, the same), and each year's five blockbusters (release weeks drawn per seed away from
    holidays and breaks: the multiplexes and provincial cinemas x1.5 the opening week, x1.25 the next, x1.1 the
    third; the first two counted as "blockbuster"). A new ten-screen multiplex opens in Aarhus on Thursday 10
    September 2026 (+22% in the provincial cinemas, accepted by the owner as a shift). The online ticket shop was
    down on the weekend of Saturday 4 November 2023 (the multiplexes and provincial cinemas x0.8 that week;
    unlabelled, history only). 3% noise per type; +2% a year. From Thursday 5 January 2023: three years read, 2026's
    52 film weeks evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="DK")
    kinds = _unequal(rng, ["multiplex", "provincial", "art_house"])
    aarhus, outage = date(2026, 9, 10), date(2023, 11, 2)
    start, n = date(2023, 1, 5), 208
    thursdays = [start + timedelta(weeks=i) for i in range(n)]

    def named(week: date) -> bool:  # a film week holding a holiday, Christmas or a school break (no release then)
        days = [week + timedelta(days=k) for k in range(7)]
        return any(cal.name(d) or (d.month == 12 and d.day >= 20) or d.isocalendar()[1] in (7, 8, _AUTUMN_BREAK)
                   for d in days)

    releases = set()
    for year in range(2023, 2027):
        free = [t for t in thursdays if t.year == year and not named(t) and not named(t - timedelta(weeks=1))]
        releases |= set(rng.sample(free, 5))
    series, cats, incidents = [], {}, set()
    for i, week in enumerate(thursdays):
        at = datetime(week.year, week.month, week.day)
        run = next((k for k in range(3) if week - timedelta(weeks=k) in releases), None)
        groups, holiday, breaking = [], False, set()
        for c in kinds:
            total = 0.0
            for k in range(7):
                d = week + timedelta(days=k)
                f = _CINEMA_DAY[c][d.weekday()] * _season_at(_CINEMA_SEASONS[c], d)
                name = cal.name(d)
                if name:
                    holiday = True
                    f = _CINEMA_DAY[c][6] * _season_at(_CINEMA_SEASONS[c], d) * (1.2 if c == "multiplex" else 1.0)
                    f *= 1.6 if d.month == 12 and d.day in (25, 26) else 1.0
                elif (d.month, d.day) in ((12, 24), (12, 31)):
                    holiday = True
                    f *= 0.15 if d.day == 24 else 0.3
                iso_week = d.isocalendar()[1]
                if iso_week in (_WINTER_BREAK[c], _AUTUMN_BREAK) and d.weekday() < 5 and not name:
                    f *= 2.0 if c != "art_house" else 1.1
                    breaking.add("winter_break" if iso_week != _AUTUMN_BREAK else "autumn_break")
                total += f
            f = total * (1.02 ** (i / 52.18))
            if run is not None and c != "art_house":
                f *= (1.5, 1.25, 1.1)[run]
            f *= 1.22 if c == "provincial" and week >= aarhus else 1.0
            f *= 0.8 if week == outage and c != "art_house" else 1.0
            groups.append(_noisy(rng, _CINEMA_DAILY[c] * f, 0.03))
        series.append((at, groups))
        if week == outage:
            incidents.add(at)
        if holiday:
            cats[at] = "holiday"
        elif breaking:
            cats[at] = min(breaking)
        elif run is not None and run < 2:
            cats[at] = "blockbuster"
    shift = datetime(aarhus.year, aarhus.month, aarhus.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 8, first=1)
    return Estate("cinemas_dk_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a microfinance lender's regions: each country's working week (weekday numbers off) and its crop-loan season in
# no calendar (month, first day, last day, lift): wheat sowing in Punjab and Sindh in November, Boro rice
# planting in Bangladesh from mid-December through January
_LENDER_WEEKEND = {"PK": (6,), "BD": (4, 5)}  # Pakistan's branches Monday to Saturday; Bangladesh's Sunday to Thursday
_CROP_SEASONS = {
    "punjab": [((11, 1), (11, 30), 1.35)],
    "sindh": [((11, 1), (11, 30), 1.25)],
    "dhaka": [((12, 15), (12, 31), 1.1), ((1, 1), (1, 31), 1.1)],
    "rajshahi": [((12, 15), (12, 31), 1.4), ((1, 1), (1, 31), 1.4)],
}
_EID_RUN_UP = 10  # working days before an Eid that borrowers draw loans (livestock before al-Adha, stock for al-Fitr)


def _working_days_before(days: list[date], first_eid_days: list[date], count: int) -> set[date]:
    """The `count` working days (of `days`, sorted) before each of `first_eid_days`."""
    out: set[date] = set()
    for eid in first_eid_days:
        out |= set([d for d in days if d < eid][-count:])
    return out


def microloans_pk_bd_monthly(seed: int) -> Estate:
    """Blind (nineteenth round): a microfinance lender's loan disbursements per month by region (four: Punjab 35%
    and Sindh 20% in Pakistan, Dhaka 30% and Rajshahi 15% in Bangladesh, in an order set by the seed), a partition
    per month dated on its last day, July 2021 to June 2026. Both countries' fiscal years run July to June
    (configured by the owner, `fiscal_year_end: 6`); the Pakistani regions on Pakistan's holidays (PK, the estate's
    calendar), the Bangladeshi ones on Bangladesh's (BD, each their own calendar). A month is the sum of its working
    days: Monday to Saturday in Pakistan, Sunday to Thursday in Bangladesh, holidays closed. The fiscal year's
    shape, on the owner's calendar: the last ten working days of a fiscal quarter's last month (September, December,
    March) x1.3 as branches meet their targets, the last fifteen of June (the year end) x1.6, the first ten of July
    x0.6 (portfolio review, new targets). The ten working days before each Eid (its first day in that country's
    calendar) x1.4 before al-Adha (livestock), x1.2 before al-Fitr. In no calendar: the crop-loan seasons
    (`_CROP_SEASONS`: wheat sowing in Pakistan in November, Boro planting in Bangladesh from mid-December through
    January). The 2022 floods (Sindh x0.5 in August and September 2022, x0.8 in October) are in the history. A
    wholesale credit line lets the Bangladeshi regions lend more from January 2026 (+25% there, accepted by the
    owner as a shift). July 2024's internet blackout in Bangladesh left that month's Bangladeshi branch uploads at
    60% (unlabelled, history only). 3% noise per region; +0.6% a month. 38 months read, the last 22 (September 2024
    to June 2026) evaluated."""
    rng = random.Random(seed)
    pakistan, bangladesh = HolidayCalendar(country="PK", fiscal_year_end=6), HolidayCalendar(country="BD",
                                                                                           fiscal_year_end=6)
    regions = _unequal(rng, ["punjab", "sindh", "dhaka", "rajshahi"])
    share = {"punjab": 0.35, "sindh": 0.20, "dhaka": 0.30, "rajshahi": 0.15}
    country = {"punjab": "PK", "sindh": "PK", "dhaka": "BD", "rajshahi": "BD"}
    calendars = {"PK": pakistan, "BD": bangladesh}
    first, last = date(2021, 7, 1), date(2026, 6, 30)
    open_days = {c: _business_days(cal, first, last, _LENDER_WEEKEND[c]) for c, cal in calendars.items()}
    every_day = [first + timedelta(days=k) for k in range((last - first).days + 45)]
    eid_days = {c: {name: [d for d in every_day if name in cal.name(d) and name not in cal.name(d - timedelta(days=1))]
                    for name in ("Eid al-Adha", "Eid al-Fitr")} for c, cal in calendars.items()}
    run_up = {c: {name: _working_days_before(open_days[c], days, _EID_RUN_UP) for name, days in eids.items()}
              for c, eids in eid_days.items()}
    credit_line, blackout = date(2026, 1, 31), date(2024, 7, 31)
    month_ends = _month_ends(first, 60)
    series, cats, incidents = [], {}, set()
    for i, end in enumerate(month_ends):
        at = datetime(end.year, end.month, end.day)
        groups, eid_month = [], False
        for r in regions:
            c = country[r]
            month_days = [d for d in open_days[c] if (d.year, d.month) == (end.year, end.month)]
            total = 0.0
            for k, d in enumerate(month_days):
                f = 1.0
                left = len(month_days) - k  # working days left in the month, this one included
                if end.month == 6 and left <= 15:
                    f *= 1.6
                elif end.month in (9, 12, 3) and left <= 10:
                    f *= 1.3
                elif end.month == 7 and k < 10:
                    f *= 0.6
                if d in run_up[c]["Eid al-Adha"]:
                    f *= 1.4
                    eid_month = True
                elif d in run_up[c]["Eid al-Fitr"]:
                    f *= 1.2
                    eid_month = True
                for (m0, d0), (m1, d1), lift in _CROP_SEASONS[r]:
                    f *= lift if (m0, d0) <= (d.month, d.day) <= (m1, d1) else 1.0
                total += f
            f = total * 1.006 ** i
            if r == "sindh" and (end.year, end.month) in ((2022, 8), (2022, 9), (2022, 10)):
                f *= 0.8 if end.month == 10 else 0.5
            f *= 1.25 if c == "BD" and end >= credit_line else 1.0
            f *= 0.6 if c == "BD" and end == blackout else 1.0
            groups.append(_noisy(rng, 4_000.0 * share[r] * f, 0.03))
        series.append((at, groups))
        if end == blackout:
            incidents.add(at)
        if end.month == 6:
            cats[at] = "year_end"
        elif end.month == 7:
            cats[at] = "year_start"
        elif end.month in (9, 12, 3):
            cats[at] = "quarter_end"
        elif eid_month:
            cats[at] = "eid"
        elif end.month in (11, 1):
            cats[at] = "crop_season"
    shift = datetime(credit_line.year, credit_line.month, credit_line.day)
    for later in month_ends[month_ends.index(credit_line) + 1:month_ends.index(credit_line) + 4]:
        cats.setdefault(datetime(later.year, later.month, later.day), "after_shift")
    group_calendars: list[HolidayCalendar | None] = [bangladesh if country[r] == "BD" else None for r in regions]
    return Estate("microloans_pk_bd_monthly", "day", series, 38, pakistan, cats, [shift], incidents=incidents,
                  group_calendars=group_calendars)


# The twentieth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (three, five, two, four)

# a Graubünden ski resort's lift gate passages by local hour (the lifts run 08:30-16:30: no rows outside these
# hours, no partition) against each sector's busiest hour: the valley gondola's first rides up and last rides down,
# the glacier's late morning, the nursery's ski-school classes (10:00-12:00 and 13:30-15:30)
_LIFT_HOURS = {
    "valley": {8: 0.45, 9: 1.0, 10: 0.95, 11: 0.8, 12: 0.45, 13: 0.6, 14: 0.65, 15: 0.55, 16: 0.35},
    "glacier": {8: 0.2, 9: 0.7, 10: 1.0, 11: 1.0, 12: 0.6, 13: 0.85, 14: 0.75, 15: 0.45, 16: 0.1},
    "nursery": {8: 0.1, 9: 0.6, 10: 1.0, 11: 0.9, 12: 0.3, 13: 0.7, 14: 0.9, 15: 0.6, 16: 0.15},
}
_LIFT_WEEK = [0.8, 0.8, 0.85, 0.85, 0.95, 1.45, 1.25]  # Monday first: weekend skiers from Zurich and the lowlands
_LIFT_SHARE = {"valley": 0.5, "glacier": 0.35, "nursery": 0.15}
_LIFT_DECLINE = 0.008  # the season's end: a day's skiers fall 0.8% a day from 1 March (lowlanders turn to spring)
# the lowland cantons' sports holidays (Sportferien, staggered, in no calendar): weekday skiers until 6 March
_SPORTS_HOLIDAYS = (date(2026, 2, 24), date(2026, 3, 6))
# powder days (30 cm fell overnight; in no calendar): locals ski the morning before work
_POWDER_DAYS = (date(2026, 3, 14), date(2026, 3, 26))
_FOEHN = date(2026, 4, 1)  # a foehn gale (in no calendar): the glacier sector on wind hold from 11:00 to the close


def lifts_graubuenden_hourly(seed: int) -> Estate:
    """Blind (twentieth round): a Graubünden ski resort's lift gate passages per local hour by sector (three: the
    valley gondola and chairs 50%, the glacier sector 35%, the nursery area's drag lifts and carpets 15%, in an
    order set by the seed), in Europe/Zurich (daylight saving starts on Sunday 29 March 2026, inside the evaluated
    fortnight), on Graubünden's holidays (the `holidays` package's CH-GR: Easter Monday, not Good Friday). Lifts run
    08:30-16:30 only: partitions at local hours 08 to 16 (the first and last half hours). Each sector's hours
    (`_LIFT_HOURS`), weekends busy (`_LIFT_WEEK`), the nursery's Saturdays x1.2 more (families). The season ends
    into April: -0.8% a day from 1 March, the valley's afternoons thinning in the spring slush (-1.5% a day from 15
    March from 14:00, to x0.6). Easter: the lowland cantons' Good Friday (in no calendar here) and Easter Monday (in
    it) ski like Saturdays, the four days x1.2 more and the nursery x1.4. In no calendar: the lowland cantons'
    sports holidays until 6 March (weekdays x1.3, history only); powder days (Saturday 14 and Thursday 26 March:
    08:00-11:59 x1.5 in the valley and on the glacier); a foehn gale on Wednesday 1 April (the glacier on wind hold
    from 11:00, no passages there, its skiers on the valley's lifts x1.25 and the nursery's x1.1; the glacier's
    morning x0.7). A new ten-seat gondola replaces the glacier's chairlift from Saturday 28 March 08:00 (+30% on the
    glacier, accepted by the owner as a shift). The gates' access-control server failed on Sunday 8 March
    10:00-12:59 (gates opened, passages counted at x0.3; unlabelled, history only). Poisson counts with 5% extra
    noise per hour and sector. From 24 February: four weeks read, 24 March to Easter Monday 6 April evaluated."""
    rng = random.Random(seed)
    zone = "Europe/Zurich"
    cal = HolidayCalendar(country="CH", subdiv="GR")
    tz = ZoneInfo(zone)
    sectors = _unequal(rng, ["valley", "glacier", "nursery"])
    start, first, last = date(2026, 2, 24), date(2026, 3, 24), date(2026, 4, 6)
    easter = _easter(2026)
    easter_days = {easter + timedelta(days=k) for k in range(-2, 2)}  # Good Friday to Easter Monday
    gondola = _utc_hour(datetime(2026, 3, 28, 8), tz)
    outage = (_utc_hour(datetime(2026, 3, 8, 10), tz), _utc_hour(datetime(2026, 3, 8, 12), tz))
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        weekday = 5 if d in easter_days and d.weekday() < 5 else d.weekday()
        day = _LIFT_WEEK[weekday] * (1.2 if d in easter_days else 1.0)
        day *= 1 - _LIFT_DECLINE * max(0, (d - date(2026, 3, 1)).days)
        day *= 1.3 if _SPORTS_HOLIDAYS[0] <= d <= _SPORTS_HOLIDAYS[1] and d.weekday() < 5 else 1.0
        for h in range(8, 17):
            at = _utc_hour(datetime(d.year, d.month, d.day, h), tz)
            groups = []
            for s in sectors:
                f = day * _LIFT_HOURS[s][h]
                f *= (1.2 if weekday == 5 else 1.0) * (1.4 if d in easter_days else 1.0) if s == "nursery" else 1.0
                if s == "valley" and h >= 14:
                    f *= max(0.6, 1 - 0.015 * max(0, (d - date(2026, 3, 15)).days))
                if d in _POWDER_DAYS and h < 12 and s != "nursery":
                    f *= 1.5
                if d == _FOEHN:
                    hold = h >= 11
                    f *= (0.0 if hold else 0.7) if s == "glacier" else (1.25 if s == "valley" else 1.1) if hold else 1
                f *= 1.3 if s == "glacier" and at >= gondola else 1.0
                f *= 0.3 if outage[0] <= at <= outage[1] else 1.0
                mean = 4_000.0 * _LIFT_SHARE[s] * f
                groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.05))) if mean > 0 else 0.0)
            series.append((at, groups))
            if outage[0] <= at <= outage[1]:
                incidents.add(at)
            if d in easter_days:
                cats[at] = "easter"
            elif d in _POWDER_DAYS:
                cats[at] = "powder_day"
            elif d == _FOEHN:
                cats[at] = "foehn"
            elif _SPORTS_HOLIDAYS[0] <= d <= _SPORTS_HOLIDAYS[1]:
                cats[at] = "sports_holidays"
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(gondola) + 1:stamps.index(gondola) + 1 + 9 * 3]:  # the next three days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day, 8), tz)
    return Estate("lifts_graubuenden_hourly", "hour", series, stamps.index(tail), cal, cats, [gondola], timezone=zone,
                  incidents=incidents)


# a Taiwanese moving company's jobs by weekday (Monday first): families move at weekends
_MOVES_WEEK = [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1]
_MOVES_DAILY = {"taipei": 120.0, "new_taipei": 95.0, "taichung": 65.0, "kaohsiung": 55.0, "hualien": 4.0}
# Taiwan's Lunar New Year breaks (first day, last day): the crews are off the whole official break, its
# weekends included; the calendar names only the weekdays of it
_TW_NEW_YEAR_BREAKS = [(date(2024, 2, 8), date(2024, 2, 14)), (date(2025, 1, 25), date(2025, 2, 2)),
                       (date(2026, 2, 14), date(2026, 2, 22))]
_NEW_YEAR_RUN_UP = 21  # days before the break that tenants move so as to start the year in the new home
# Ghost Month, the seventh lunar month (first day, last day; in no calendar): moving house is held unlucky, so
# moves are brought forward into the days before it or put off until it ends
_GHOST_MONTHS = [(date(2024, 8, 4), date(2024, 9, 2)), (date(2025, 8, 23), date(2025, 9, 21)),
                 (date(2026, 8, 13), date(2026, 9, 10))]
_GHOST_RUN_UP = 10  # days before Ghost Month that moves are brought forward into
_TAIPEI_SUNDAYS = date(2025, 11, 2)  # the Taipei branch starts full Sunday crews (before: one standby crew)


def moves_tw(seed: int) -> Estate:
    """Blind (twentieth round): a Taiwanese moving company's jobs per day by branch (five: Taipei 120 a day, New
    Taipei 95, Taichung 65, Kaohsiung 55 and Hualien 4, thirty times smaller than Taipei; in an order set by the
    seed), on Taiwan's holidays (the `holidays` package's TW, 2025's new holidays included). Weekends busy
    (`_MOVES_WEEK`); Taipei works Sundays with one standby crew (x0.25) until it starts full Sunday crews on Sunday 2
    November 2025 (x1.1 like the other branches: the branch's weekday pattern changes, accepted by the owner as a
    shift). Leases end with the month: the last three days of a month and its first two x1.35. Holidays x0.35. The
    Lunar New Year: the 21 days before the break x1.5 (tenants move to start the year in the new home), the whole
    official break x0.05 (its weekends too: in the calendar only its weekdays), the week after x0.6. In no calendar:
    Ghost Month (the seventh lunar month, x0.55: moving then is unlucky) and the ten days before it x1.3 (moves
    brought forward); graduates' moves from 15 June to July (x1.1). The dispatch app was down on Wednesday 12 June
    2024 (x0.35, jobs booked by phone; unlabelled, history only). Poisson counts with 6% extra noise per branch; +3%
    a year. From 1 January 2024: 400 days read, to 1 February 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TW")
    branches = _unequal(rng, ["taipei", "new_taipei", "taichung", "kaohsiung", "hualien"])
    outage = date(2024, 6, 12)
    start, n = date(2024, 1, 1), 763
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        month_days = (date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)).day
        lease = d.day <= 2 or d.day > month_days - 3
        on_break = any(a <= d <= b for a, b in _TW_NEW_YEAR_BREAKS)
        run_up = any(0 < (a - d).days <= _NEW_YEAR_RUN_UP for a, _ in _TW_NEW_YEAR_BREAKS)
        after_break = any(0 < (d - b).days <= 7 for _, b in _TW_NEW_YEAR_BREAKS)
        ghost = any(a <= d <= b for a, b in _GHOST_MONTHS)
        ghost_run_up = any(0 < (a - d).days <= _GHOST_RUN_UP for a, _ in _GHOST_MONTHS)
        holiday = bool(cal.name(d)) and not on_break
        day = 0.05 if on_break else 0.35 if holiday else 1.0
        day *= 1.35 if lease and not on_break else 1.0
        day *= 1.5 if run_up else 0.6 if after_break else 1.0
        day *= 0.55 if ghost else 1.3 if ghost_run_up else 1.0
        day *= 1.1 if (d.month, d.day) >= (6, 15) and d.month <= 7 else 1.0
        day *= 0.35 if d == outage else 1.0
        groups = []
        for b in branches:
            week = _MOVES_WEEK[d.weekday()]
            if b == "taipei" and d.weekday() == 6 and d < _TAIPEI_SUNDAYS:
                week = 0.25
            mean = _MOVES_DAILY[b] * week * day * 1.03 ** (i / 365.25)
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.06))))
        series.append((at, groups))
        if d == outage:
            incidents.add(at)
        if on_break or run_up or after_break:
            cats[at] = "lunar_new_year"
        elif ghost:
            cats[at] = "ghost_month"
        elif ghost_run_up:
            cats[at] = "ghost_run_up"
        elif holiday:
            cats[at] = "holiday"
        elif lease:
            cats[at] = "lease_turnover"
    shift = datetime(_TAIPEI_SUNDAYS.year, _TAIPEI_SUNDAYS.month, _TAIPEI_SUNDAYS.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("moves_tw", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Belgian lottery's sales by day of its draw week (Monday first; the week runs Sunday to Saturday, closed by
# Saturday's Lotto draw): the retail points' EuroMillions Tuesdays and Fridays, Lotto Wednesdays and Saturdays,
# few newsagents open on Sunday; online play spread over the week
_LOTTERY_RETAIL_DAY = [0.12, 0.17, 0.15, 0.13, 0.2, 0.19, 0.04]
_EUROMILLIONS_SHARE = 0.4  # EuroMillions' part of a week's sales (the rest Lotto and the other draw games)
_JACKPOT_START, _JACKPOT_CAP = 17.0, 250.0  # EuroMillions' jackpot floor and cap (EUR million)
_JACKPOT_FEVER = 100.0  # a jackpot from which the press reports it (a "jackpot" week)


def _euromillions_jackpots(rng: random.Random, first: date, last: date) -> dict[date, float]:
    """EuroMillions' jackpot (EUR million) at each Tuesday and Friday draw from `first` to `last`: rolling over
    when nobody wins (more likely as ticket sales grow with it), won at the fifth draw at the cap."""
    out, jackpot, at_cap, d = {}, _JACKPOT_START, 0, first
    while d <= last:
        if d.weekday() in (1, 4):
            out[d] = jackpot
            won = rng.random() < 0.1 + 0.15 * jackpot / _JACKPOT_CAP or at_cap >= 4
            at_cap = at_cap + 1 if jackpot >= _JACKPOT_CAP else 0
            jackpot = _JACKPOT_START if won else min(_JACKPOT_CAP, jackpot + 6.0 + 0.05 * jackpot)
            at_cap = 0 if won else at_cap
        d += timedelta(days=1)
    return out


def lotto_be_weekly(seed: int) -> Estate:
    """Blind (twentieth round): the Belgian national lottery's draw-game sales per draw week (Sunday to Saturday, a
    partition dated on the Saturday of the week's Lotto draw) by channel (two: the newsagents' and supermarkets'
    terminals, EUR 9 million a week, and online play, EUR 2 million growing 20% a year; in an order set by the
    seed), on Belgium's holidays (the `holidays` package's BE). A week is the sum of its days
    (`_LOTTERY_RETAIL_DAY`: the retail terminals' draw days); a holiday closes most retail points (that day x0.3),
    24 and 31 December close early (x0.6, in no calendar); retail -1% a year. In no calendar: EuroMillions' jackpot
    (`_euromillions_jackpots`: a rollover chain drawn per seed from EUR 17 million to the EUR 250 million cap),
    whose sales grow with it (its 40% of a week's sales x1 + 1.2 x (jackpot - 50) / 200 above EUR 50 million at
    the week's two draws, online x0.8 as much: casual players buy at the newsagent's), the weeks of a jackpot from
    EUR 100 million counted as "jackpot"; the summer holidays away (July and August, retail x0.88, online x0.95).
    The lottery's new app takes bets in-app from Sunday 1 March 2026 (online +35% from the week ending 7 March,
    accepted by the owner as a shift). The retail terminals' network was down on Saturday 14 October 2023 (the
    week's retail x0.8; unlabelled, history only). 2.5% noise per channel. From the week ending 7 January 2023:
    three years read, 2026's 52 draw weeks evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BE")
    channels = _unequal(rng, ["retail", "online"])
    start, n = date(2023, 1, 7), 208
    saturdays = [start + timedelta(weeks=i) for i in range(n)]
    jackpots = _euromillions_jackpots(rng, date(2022, 6, 1), saturdays[-1])
    app, outage = date(2026, 3, 7), date(2023, 10, 14)
    series, cats, incidents = [], {}, set()
    for i, saturday in enumerate(saturdays):
        at = datetime(saturday.year, saturday.month, saturday.day)
        days = [saturday - timedelta(days=6 - k) for k in range(7)]  # Sunday to Saturday
        draws = [jackpots[d] for d in days if d in jackpots]
        fever = sum(max(0.0, j - 50.0) / 200.0 for j in draws) / len(draws)
        holiday = any(cal.name(d) for d in days)
        years = i / 52.18
        groups = []
        for c in channels:
            if c == "retail":
                f = sum(_LOTTERY_RETAIL_DAY[d.weekday()] * (0.3 if cal.name(d) else 1.0)
                        * (0.6 if (d.month, d.day) in ((12, 24), (12, 31)) else 1.0)
                        * (0.88 if d.month in (7, 8) else 1.0) for d in days)
                f *= 9_000_000.0 * 0.99 ** years * (1 + _EUROMILLIONS_SHARE * 1.2 * fever)
                f *= 0.8 if saturday == outage else 1.0
            else:
                f = sum((0.95 if d.month in (7, 8) else 1.0) / 7 for d in days)
                f *= 2_000_000.0 * 1.2 ** years * (1 + _EUROMILLIONS_SHARE * 1.2 * 0.8 * fever)
                f *= 1.35 if saturday >= app else 1.0
            groups.append(_noisy(rng, f, 0.025))
        series.append((at, groups))
        if saturday == outage:
            incidents.add(at)
        if holiday:
            cats[at] = "holiday"
        elif max(draws) >= _JACKPOT_FEVER:
            cats[at] = "jackpot"
        elif any(d.month in (7, 8) for d in days):
            cats[at] = "summer"
    shift = datetime(app.year, app.month, app.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 8, first=1)
    return Estate("lotto_be_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# the flagship phone's launch Fridays in the shops (in no calendar): contract upgrades for the next fortnight
_PHONE_LAUNCHES = [date(2021, 9, 24), date(2022, 9, 16), date(2023, 9, 22), date(2024, 9, 20), date(2025, 9, 19)]
_SIM_SUNDAY = {"RO": 0.5, "HU": 0.3}  # Sunday's activations: Romania's malls open, Hungary's fewer shops
_COMMISSION_CUTOFF = 20  # the dealers' commission month runs from the 21st to the 20th, dated on the 20th


def _commission_months(first: date, count: int) -> list[date]:
    """`count` commission months' closing days (the 20th) from `first`'s."""
    return [date(first.year + (first.month - 1 + k) // 12, (first.month - 1 + k) % 12 + 1, _COMMISSION_CUTOFF)
            for k in range(count)]


def activations_ro_hu_monthly(seed: int) -> Estate:
    """Blind (twentieth round): a mobile operator's new SIM activations (contracts and prepaid, counted for the
    dealers' commissions) per commission month (the 21st to the 20th, dated on the 20th) by region (four: Bucharest
    35% and Transylvania 25% in Romania, Budapest 25% and Transdanubia 15% in Hungary, in an order set by the seed),
    July 2021 to June 2026. The Romanian regions on Romania's holidays (RO, the estate's calendar: Orthodox Easter,
    Orthodox Pentecost, Children's Day), the Hungarian ones on Hungary's (HU, each their own calendar: Western
    Easter, the bridge days worked on a Saturday). Easter moves between the two calendars: some years the same
    Sunday (2025), some a week apart (2023, 2026), some five weeks (2024: Western on 31 March, Orthodox on 5 May,
    in different commission months). A month is the sum of its days: Saturdays x1.15, Sundays x0.5 in Romania
    (malls) and x0.3 in Hungary, holidays x0.1 (shops shut) and 24 December x0.5; the six days before each country's
    Easter Sunday x1.2 (phones as Easter gifts); December 1-23 x1.45 (Christmas gifts), 27-31 December x0.8 and 2-15
    January x0.75. In no calendar: the flagship phone's launch (a Friday in late September, `_PHONE_LAUNCHES`, and
    the fortnight after x1.35: contract upgrades); students' SIMs from 1 to 15 September x1.15; Lake Balaton's
    tourist prepaid SIMs (Transdanubia x1.4 from 1 July to 20 August) while Bucharest empties (x0.85 in July and
    August). From 21 October 2025 a Hungarian retail chain's 200 stores sell the operator's SIMs (+25% in the
    Hungarian regions from the month ending 20 November 2025, accepted by the owner as a shift). The activation
    platform's migration in the month ending 20 May 2024 logged Hungary's activations at x0.7 (unlabelled, history
    only). 3% noise per region; +0.5% a month. 38 months read, the last 22 (to 20 June 2026) evaluated."""
    rng = random.Random(seed)
    romania, hungary = HolidayCalendar(country="RO"), HolidayCalendar(country="HU")
    regions = _unequal(rng, ["bucharest", "transylvania", "budapest", "transdanubia"])
    share = {"bucharest": 0.35, "transylvania": 0.25, "budapest": 0.25, "transdanubia": 0.15}
    country = {"bucharest": "RO", "transylvania": "RO", "budapest": "HU", "transdanubia": "HU"}
    calendars = {"RO": romania, "HU": hungary}
    # each country's Easter Sunday: the first day its calendar names "Easter" of each year
    easters = {c: {y: min(date(y, 3, 20) + timedelta(days=k) for k in range(50)
                          if cal.name(date(y, 3, 20) + timedelta(days=k)) in ("Easter", "Easter Sunday"))
                   for y in range(2021, 2027)} for c, cal in calendars.items()}
    closes = _commission_months(date(2021, 6, 1), 61)  # June 2021's close opens the first month
    retail_chain, migration = date(2025, 11, 20), date(2024, 5, 20)
    series, cats, incidents = [], {}, set()
    for i, (before, close) in enumerate(pairwise(closes)):
        at = datetime(close.year, close.month, close.day)
        days = [before + timedelta(days=k) for k in range(1, (close - before).days + 1)]
        kinds = set()
        groups = []
        for r in regions:
            c = country[r]
            cal, easter = calendars[c], easters[c]
            total = 0.0
            for d in days:
                f = 0.1 if cal.name(d) else (1.15 if d.weekday() == 5 else _SIM_SUNDAY[c] if d.weekday() == 6 else 1.0)
                f *= 0.5 if (d.month, d.day) == (12, 24) and not cal.name(d) else 1.0
                to_easter = (easter[d.year] - d).days
                if 0 < to_easter <= 6:
                    f *= 1.2
                if -1 <= to_easter <= 2:  # Good Friday to Easter Monday
                    kinds.add("easter")
                if d.month == 12 and d.day <= 23:
                    f *= 1.45
                elif d.month == 12 and d.day >= 27:
                    f *= 0.8
                elif d.month == 1 and 2 <= d.day <= 15:
                    f *= 0.75
                if d.month == 12 or (d.month == 1 and d.day <= 15):
                    kinds.add("christmas")
                if any(0 <= (d - launch).days < 14 for launch in _PHONE_LAUNCHES):
                    f *= 1.35
                    kinds.add("phone_launch")
                f *= 1.15 if d.month == 9 and d.day <= 15 else 1.0
                if r == "transdanubia" and (d.month == 7 or (d.month == 8 and d.day <= 20)):
                    f *= 1.4
                    kinds.add("summer")
                f *= 0.85 if r == "bucharest" and d.month in (7, 8) else 1.0
                total += f
            f = total * 1.005 ** i
            f *= 1.25 if c == "HU" and close >= retail_chain else 1.0
            f *= 0.7 if c == "HU" and close == migration else 1.0
            groups.append(_noisy(rng, 9_000.0 * share[r] * f, 0.03))
        series.append((at, groups))
        if close == migration:
            incidents.add(at)
        for kind in ("christmas", "easter", "phone_launch", "summer"):
            if kind in kinds:
                cats[at] = kind
                break
    shift = datetime(retail_chain.year, retail_chain.month, retail_chain.day)
    for later in closes[closes.index(retail_chain) + 1:closes.index(retail_chain) + 4]:
        cats.setdefault(datetime(later.year, later.month, later.day), "after_shift")
    group_calendars: list[HolidayCalendar | None] = [hungary if country[r] == "HU" else None for r in regions]
    return Estate("activations_ro_hu_monthly", "day", series, 38, romania, cats, [shift], incidents=incidents,
                  group_calendars=group_calendars)


# The twenty-first round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (four, five, three, six)

# a Croatian motorway's toll transactions per local hour against its busiest hour on an ordinary weekday
# (vehicles leaving the motorway at a toll plaza: commuters into Zagreb in the morning, home in the afternoon)
_TOLL_HOURS = [0.08, 0.05, 0.04, 0.04, 0.06, 0.16, 0.42, 0.78, 0.82, 0.7, 0.68, 0.72, 0.78, 0.8, 0.86, 0.95, 1.0,
               0.96, 0.82, 0.62, 0.46, 0.34, 0.24, 0.14]
_TOLL_WEEK = [0.97, 0.95, 0.95, 1.0, 1.12, 0.92, 0.85]  # Monday first: Friday's trips out, quieter weekends
# an ordinary weekday's transactions at the busiest hour; the A11 (Zagreb-Sisak) is a short suburban motorway,
# about 22 times smaller than the A1 (Zagreb-Split-Ploče) at an ordinary weekday's peak
_TOLL_PEAK = {"a1_dalmatia": 2_600.0, "a3_slavonia": 2_100.0, "a6_rijeka": 950.0, "a11_sisak": 120.0}
_COAST = {"a1_dalmatia", "a6_rijeka"}  # the motorways to the coast (tourists, weekend houses)
_PRE_SEASON = {"a1_dalmatia": 0.011, "a6_rijeka": 0.007}  # the coast's traffic climbing a day from late April
# German and Austrian holidays (in no Croatian calendar): their tourists drive south for the long weekend
_ASCENSION = date(2026, 5, 14)
_WHITSUN = (date(2026, 5, 23), date(2026, 5, 25))  # Whit Saturday to Whit Monday (Pfingstferien begin in Bavaria)
_SISAK_SECTION = datetime(2026, 5, 26, 12)  # local: the A11's new section to Sisak opens to traffic


def _day_off(cal: HolidayCalendar, d: date, bridge: date) -> bool:
    """A weekend day, a holiday or the bridge day most workers take off."""
    return d.weekday() >= 5 or bool(cal.name(d)) or d == bridge


def tolls_hr_hourly(seed: int) -> Estate:
    """Blind (twenty-first round): Croatia's motorway operator's toll transactions per local hour by motorway (four:
    the A1 to Dalmatia, the A3 across Slavonia, the A6 to Rijeka and the A11 to Sisak, 22 times smaller than the A1
    at an ordinary weekday's peak, 25-30 times over a week; in an order set by the seed), in Europe/Zagreb (no clock
    change inside), on Croatia's holidays (the `holidays` package's HR: Labour Day on Friday 1 May, Statehood Day on
    Saturday 30 May, Corpus Christi on Thursday 4 June 2026). Open 24 hours: every hour is a partition, nights of a
    handful of transactions on the A11. Commuter hours (`_TOLL_HOURS`), Fridays busy (`_TOLL_WEEK`). The coast's
    motorways (A1, A6): Friday 13:00-20:59 x1.35 out, Sunday 14:00-21:59 x1.3 back, Saturday 05:00-11:59 x1.4 on the
    A1 (holiday flats change over on Saturdays), the pre-season climbing +1.1% a day on the A1 and +0.7% on the A6
    from 25 April. The commuter motorways (A3, A11) on weekends and holidays: 06:00-08:59 x0.5. A Croatian holiday
    on a weekday runs like a Saturday, or like a Sunday when it is the last day off (the coast's return), its eve's
    afternoon from 13:00 like a Friday's; Friday 5 June, between Corpus Christi and the weekend, is a bridge day
    most take off (in no calendar: like a Saturday). In no calendar: Ascension (Thursday 14 May) and Whitsun (23-25
    May) in Germany and Austria, whose tourists drive south (the A1's and A6's day x1.25, Whit Saturday x1.45) and
    back on Whit Monday afternoon (x1.4 from 13:00). The A11's new section to Sisak opens on Tuesday 26 May at 12:00
    (+45% on the A11, accepted by the owner as a shift). The toll system's central server failed on Monday 11 May
    07:00-09:59 (barriers up, transactions counted at x0.15; unlabelled, history only). Poisson counts with 4% extra
    noise per hour and motorway. From Saturday 25 April 2026: four weeks read, Saturday 23 May to Friday 5 June
    evaluated."""
    rng = random.Random(seed)
    zone = "Europe/Zagreb"
    cal = HolidayCalendar(country="HR")
    tz = ZoneInfo(zone)
    roads = _unequal(rng, list(_TOLL_PEAK))
    start, first, last = date(2026, 4, 25), date(2026, 5, 23), date(2026, 6, 5)
    bridge = date(2026, 6, 5)
    outage = (datetime(2026, 5, 11, 7), datetime(2026, 5, 11, 9))
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        holiday = bool(cal.name(d))
        eve = bool(cal.name(d + timedelta(days=1))) and not holiday and d.weekday() < 5
        foreign = d == _ASCENSION or _WHITSUN[0] <= d <= _WHITSUN[1]
        # a weekday off (a holiday, the bridge) runs like a Saturday, or like a Sunday when it is the last day off
        off_next = _day_off(cal, d + timedelta(days=1), bridge)
        like = d.weekday() if d.weekday() >= 5 or not _day_off(cal, d, bridge) else 5 if off_next else 6
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            at = _utc_hour(local, tz)
            groups = []
            for r in roads:
                f = _TOLL_WEEK[like] * _TOLL_HOURS[h]
                if r in _COAST:
                    f *= 1 + _PRE_SEASON[r] * k
                    f *= 1.35 if (like == 4 or eve) and 13 <= h <= 20 else 1.0
                    f *= 1.3 if like == 6 and 14 <= h <= 21 else 1.0
                    f *= 1.4 if r == "a1_dalmatia" and like == 5 and 5 <= h <= 11 else 1.0
                    f *= (1.45 if d == _WHITSUN[0] else 1.25) if foreign else 1.0
                    f *= 1.4 if d == _WHITSUN[1] and h >= 13 else 1.0
                elif like >= 5 and 6 <= h <= 8:
                    f *= 0.5
                f *= 1.45 if r == "a11_sisak" and local >= _SISAK_SECTION else 1.0
                f *= 0.15 if outage[0] <= local <= outage[1] else 1.0
                mean = _TOLL_PEAK[r] * f
                groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.04))))
            series.append((at, groups))
            if outage[0] <= local <= outage[1]:
                incidents.add(at)
            if d == date(2026, 5, 30):
                cats[at] = "statehood_day"
            elif date(2026, 6, 4) <= d <= bridge or (d == date(2026, 6, 3) and h >= 13):
                cats[at] = "corpus_christi"
            elif _WHITSUN[0] <= d <= _WHITSUN[1]:
                cats[at] = "whitsun"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_SISAK_SECTION, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 24 * 3]:  # the next three days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("tolls_hr_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Slovak vehicle-inspection (STK) company's inspections by weekday (Monday first): Monday's queue of cars whose
# owners booked after the weekend, Fridays short; the branches open Saturday mornings (08:00-12:00), the Bratislava
# station (the company's head station and largest) not: no inspections there on Saturdays
_STK_WEEK = [1.15, 1.05, 1.0, 1.0, 0.88, 0.42, 0.0]
_STK_DAILY = {"bratislava": 260.0, "zilina": 140.0, "nitra": 120.0, "trnava": 110.0, "senec": 95.0}
_STK_WEEKEND = {"bratislava": (5, 6)}  # the head station's closed days; the branches close on Sundays only
_STK_DUE_DAYS = 4  # open days before a month's end in which the owners of certificates expiring with it come in
# the Senec station's catchment (new housing estates east of Bratislava, a leasing company's fleets): its
# inspections climb steadily from 40% of its eventual level to all of it over fourteen months (a ramp, no step)
_SENEC_RAMP = (date(2024, 9, 1), date(2025, 10, 31), 0.4)
# the national inspection register (in which every inspection must be recorded before its certificate prints)
# failed for a whole week: stations could only finish inspections recorded offline
_REGISTER_OUTAGE = (date(2024, 10, 14), date(2024, 10, 19))
_NITRA_TRUCK_LANE = date(2025, 6, 2)  # Nitra's second lane, for vans and trucks, opens


def _ramp(day: date, first: date, last: date, start: float) -> float:
    """A level climbing linearly from `start` on `first` to 1 on `last` (1 after it)."""
    if day >= last:
        return 1.0
    return start if day <= first else start + (1 - start) * (day - first).days / (last - first).days


def inspections_sk(seed: int) -> Estate:
    """Blind (twenty-first round): a Slovak vehicle-inspection company's inspections (STK) per open day by station
    (five: Bratislava, the head station, 260 a day, Žilina 140, Nitra 120, Trnava 110 and Senec 95 at full level; in
    an order set by the seed), on Slovakia's holidays (the `holidays` package's SK: every station closed, no rows;
    the consolidation's cuts included, 17 November 2025 a working day). Monday to Saturday: a partition per day some
    station opened (Sundays and holidays have none); Bratislava is closed on Saturdays (zero there), the branches
    open Saturday mornings (`_STK_WEEK`). The first open day after a holiday x1.15. In no calendar: certificates
    expire at a month's end, so its last four open days x1.3 and the first three of the next x0.85; spring (16 March
    to 30 April: cars back on the road, motorcycles) x1.15; the second half of June x1.1 (cars checked before the
    drive abroad); the summer holidays (15 July to 31 August) x0.8; between Christmas and New Year x0.5 and
    January's first week x0.8. The Senec station's catchment grows: from 1 September 2024 to 31 October 2025 its
    inspections climb linearly from 40% of its level to all of it (a legitimate ramp, not a shift). Nitra opens a
    second lane for vans and trucks on Monday 2 June 2025 (+25% there, accepted by the owner as a shift). The
    national inspection register failed for a whole week, Monday 14 to Saturday 19 October 2024 (x0.3 everywhere,
    the next week x1.15 as the inspections were redone; the outage's six days unlabelled, history only). Poisson
    counts with 5% extra noise per station; +2% a year. From 2 January 2024 (the open days of 763 calendar days, to
    31 January 2026): from Wednesday 8 January 2025 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SK")
    stations = _unequal(rng, list(_STK_DAILY))
    start, n = date(2024, 1, 1), 763
    days = [start + timedelta(days=i) for i in range(n)]
    open_days = [d for d in days if d.weekday() != 6 and not cal.name(d)]
    series, cats, incidents = [], {}, set()
    for j, d in enumerate(open_days):
        at = datetime(d.year, d.month, d.day)
        month_left = [o for o in open_days[j:j + 8] if o.month == d.month]
        month_in = [o for o in open_days[max(0, j - 5):j + 1] if o.month == d.month]
        due = len(month_left) <= _STK_DUE_DAYS
        new_month = len(month_in) <= 3
        closed = [open_days[j - 1] + timedelta(days=k) for k in range(1, (d - open_days[j - 1]).days)] if j else []
        after_holiday = any(cal.name(c) and c.weekday() != 6 for c in closed)  # a Sunday holiday closes nothing more
        spring = (3, 16) <= (d.month, d.day) <= (4, 30)
        summer = (7, 15) <= (d.month, d.day) <= (8, 31)
        christmas = (d.month == 12 and d.day >= 27) or (d.month == 1 and d.day <= 7)
        outage = _REGISTER_OUTAGE[0] <= d <= _REGISTER_OUTAGE[1]
        redo = _REGISTER_OUTAGE[1] < d <= _REGISTER_OUTAGE[1] + timedelta(days=7)
        f = 1.15 if after_holiday else 1.0
        f *= 1.3 if due else 0.85 if new_month else 1.0
        f *= 1.15 if spring else 1.1 if d.month == 6 and d.day >= 16 else 0.8 if summer else 1.0
        f *= (0.5 if d.month == 12 else 0.8) if christmas else 1.0
        f *= 0.3 if outage else 1.15 if redo else 1.0
        f *= 1.02 ** ((d - start).days / 365.25)
        groups = []
        for s in stations:
            if d.weekday() in _STK_WEEKEND.get(s, (6,)):
                groups.append(0.0)
                continue
            mean = _STK_DAILY[s] * _STK_WEEK[d.weekday()] * f
            mean *= _ramp(d, *_SENEC_RAMP) if s == "senec" else 1.0
            mean *= 1.25 if s == "nitra" and d >= _NITRA_TRUCK_LANE else 1.0
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.05))))
        series.append((at, groups))
        if outage:
            incidents.add(at)
        if christmas:
            cats[at] = "christmas"
        elif after_holiday:
            cats[at] = "after_holiday"
        elif due:
            cats[at] = "month_end"
        elif spring:
            cats[at] = "spring"
        elif summer:
            cats[at] = "summer"
    shift = datetime(_NITRA_TRUCK_LANE.year, _NITRA_TRUCK_LANE.month, _NITRA_TRUCK_LANE.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 25]:  # the next four weeks' open days
        cats.setdefault(at, "after_shift")
    evaluate_from = next(i for i, at in enumerate(stamps) if at >= datetime(2025, 1, 8))
    return Estate("inspections_sk", "day", series, evaluate_from, cal, cats, [shift], incidents=incidents)


# a Gulf Coast grocery chain's digital-coupon redemptions by day of its ad week (Monday first; the week runs
# Wednesday to Tuesday, from the day the new weekly ad and its coupons go live): Wednesday's new coupons and the
# weekend's big shop; Monday and Tuesday the week's coupons are mostly used
_AD_WEEK_DAY = [0.75, 0.8, 1.2, 0.9, 1.0, 1.25, 1.1]
_COUPON_DAILY = {"houston": 52_000.0, "dallas": 38_000.0, "louisiana": 21_000.0}  # an ordinary day's redemptions
# SNAP benefits are loaded on a day set by the recipient's case number (in no calendar): Texas from the 1st to the
# 15th of each month, Louisiana from the 1st to the 23rd; a week holding more of those days redeems more
_SNAP_DAYS = {"houston": 15, "dallas": 15, "louisiana": 23}
_SNAP_LIFT = 0.08  # a benefit-issuance day's redemptions against another day's
_SUPER_BOWLS = [date(2023, 2, 12), date(2024, 2, 11), date(2025, 2, 9), date(2026, 2, 8)]
# hurricanes (in no calendar): (landfall day, region): the two days before it stock-up, landfall and its power cuts
_HURRICANES = [(date(2024, 7, 8), "houston"), (date(2024, 9, 11), "louisiana"), (date(2026, 9, 16), "louisiana")]
_COOKOUTS = ("Memorial Day", "Independence Day", "Labor Day")  # holidays shopped for the day or two before
_AUTO_CLIP = date(2026, 4, 1)  # the app starts clipping every coupon to every loyalty card (a Wednesday)


def _thanksgiving(year: int) -> date:
    """The fourth Thursday of November."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _cookout(cal: HolidayCalendar, d: date) -> bool:
    """Memorial Day, Independence Day (or the day it is observed) and Labor Day: the summer's cookouts."""
    return any(name in cal.name(d) for name in _COOKOUTS)


def _coupon_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """One region's redemptions on `d` against an ordinary day's (its weekday, the holidays' shopping, the SNAP
    days, the Super Bowl and hurricanes)."""
    f = _AD_WEEK_DAY[d.weekday()] * (1 + _SNAP_LIFT if d.day <= _SNAP_DAYS[region] else 1.0)
    turkey = _thanksgiving(d.year)
    to_turkey = (turkey - d).days
    if to_turkey == 0:
        f = 0.15  # stores close at noon
    elif to_turkey == 1:
        f *= 2.1  # the busiest grocery day of the year
    elif 2 <= to_turkey <= 6:
        f *= 1.45
    elif to_turkey == -1:
        f *= 0.75
    if d.month == 12 and 18 <= d.day <= 24:
        f *= 1.45 if d.day < 24 else 1.2
    f *= 0.0 if (d.month, d.day) == (12, 25) else 0.8 if (d.month == 12 and d.day >= 26) else 1.0
    f *= 1.2 if (d.month, d.day) == (12, 31) else 0.6 if (d.month, d.day) == (1, 1) else 1.0
    if _cookout(cal, d):
        f *= 0.85
    if _cookout(cal, d + timedelta(days=1)) or _cookout(cal, d + timedelta(days=2)):
        f *= 1.2
    if any(0 <= (bowl - d).days <= 2 for bowl in _SUPER_BOWLS):
        f *= 1.22
    for landfall, where in _HURRICANES:
        if where == region:
            f *= 1.7 if 1 <= (landfall - d).days <= 2 else 0.25 if d == landfall else (
                0.6 if 1 <= (d - landfall).days <= 5 else 1.0)
    return f


def coupons_us_weekly(seed: int) -> Estate:
    """Blind (twenty-first round): a Gulf Coast grocery chain's digital-coupon redemptions per ad week (Wednesday to
    Tuesday, from the day the weekly ad and its coupons go live; a partition keyed on the week's first day, the
    Wednesday, as a weekly partition definition with a Wednesday offset keys it) by region (three: Houston 52,000 an
    ordinary day, Dallas 38,000, Louisiana 21,000; in an order set by the seed), on Texas's holidays (the `holidays`
    package's US-TX). A week is the sum of its days (`_coupon_day`): the ad week's days (`_AD_WEEK_DAY`);
    Thanksgiving's run-up (the Friday to Tuesday before x1.45, its Wednesday x2.1, the day itself closing at noon),
    so the ad week ending on the Tuesday before Thanksgiving is the year's biggest and the one from its Wednesday
    holds both the rush's peak and the closed Thursday; Christmas's week before (x1.45), Christmas Day closed, the
    week after x0.8; the cookouts before Memorial Day, Independence Day and Labor Day (the two days before x1.2, the
    day itself x0.85). In no calendar: SNAP benefits loaded on the 1st to the 15th (Texas) or the 23rd (Louisiana)
    of each month (those days x1.08: a week's share of them moves with the month); Super Bowl Sunday's three days
    x1.22; hurricanes (Beryl on Houston, 8 July 2024; Francine on Louisiana, 11 September 2024; one on Louisiana on
    16 September 2026, evaluated): the two days before x1.7, landfall x0.25, five days of power cuts x0.6. Digital
    adoption +7% a year. From the ad week of Wednesday 1 April 2026 the app clips every coupon to every loyalty card
    (+35% in every region, accepted by the owner as a shift). The coupon clearing house lost Saturday 15 February
    2025's redemptions (that day x0.1 in every region; the week unlabelled, history only). 3% noise per region and
    week. From the ad week of Wednesday 4 January 2023: three years read, 2026's 52 ad weeks evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="US", subdiv="TX")
    regions = _unequal(rng, list(_COUPON_DAILY))
    start, n = date(2023, 1, 4), 208
    lost = date(2025, 2, 15)
    series, cats, incidents = [], {}, set()
    for i in range(n):
        wednesday = start + timedelta(weeks=i)
        at = datetime(wednesday.year, wednesday.month, wednesday.day)
        days = [wednesday + timedelta(days=k) for k in range(7)]
        groups = []
        for r in regions:
            f = sum(_coupon_day(d, r, cal) * (0.1 if d == lost else 1.0) for d in days)
            f *= 1.07 ** (i / 52.18) * (1.35 if wednesday >= _AUTO_CLIP else 1.0)
            groups.append(_noisy(rng, _COUPON_DAILY[r] * f, 0.03))
        series.append((at, groups))
        if lost in days:
            incidents.add(at)
        turkey = _thanksgiving(wednesday.year)
        if any(0 <= (turkey - d).days <= 6 for d in days):
            cats[at] = "thanksgiving"
        elif any((d.month == 12 and d.day >= 18) or (d.month, d.day) == (1, 1) for d in days):
            cats[at] = "christmas"
        elif any(-2 <= (d - landfall).days <= 5 for d in days for landfall, _ in _HURRICANES):
            cats[at] = "hurricane"
        elif any(d in _SUPER_BOWLS for d in days):
            cats[at] = "super_bowl"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_AUTO_CLIP.year, _AUTO_CLIP.month, _AUTO_CLIP.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 6, first=1)
    return Estate("coupons_us_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Baltic parcel-locker network's parcels placed into lockers by weekday (Monday first): the couriers' rounds run
# Monday to Friday, a short Saturday round, Sunday only the marketplaces' own vans
_LOCKER_WEEK = [1.0, 1.05, 1.05, 1.0, 1.1, 0.45, 0.12]
# an ordinary Monday's parcels by area: Lithuania's three cities' areas, Riga and the rest of Latvia, Estonia
_LOCKER_DAILY = {"vilnius": 8_000.0, "kaunas": 5_500.0, "klaipeda": 3_500.0, "riga": 5_000.0, "latvia_regions": 2_500.0,
                 "estonia": 6_000.0}
_LOCKER_COUNTRY = {"vilnius": "LT", "kaunas": "LT", "klaipeda": "LT", "riga": "LV", "latvia_regions": "LV",
                   "estonia": "EE"}
_SUBSTITUTED = re.compile(r"substituted from (\d\d)/(\d\d)/(\d{4})")  # a day off worked on a Saturday instead
# Singles' Day (11 November) orders from Asian marketplaces reach the lockers by sea and rail 12-25 days later
_SINGLES_WAVE = (12, 25)
_TALLINN_SNOWSTORM = date(2026, 1, 13)  # roads closed around Tallinn (in no calendar); the rounds run the next day
_RIMI_LOCKERS = date(2025, 9, 1)  # a supermarket chain's stores host the network's lockers across Estonia
_HUB_FAILURE = date(2024, 10, 8)  # the Kaunas sorting hub's conveyor stopped (Lithuania's parcels held a day)


def _worked_saturdays(cal: HolidayCalendar, years: range) -> set[date]:
    """The Saturdays worked in exchange for a bridge day off ("Day off (substituted from 05/10/2025)")."""
    out = set()
    for year in years:
        d = date(year, 1, 1)
        while d.year == year:
            m = _SUBSTITUTED.search(cal.name(d))
            if m:
                out.add(date(int(m.group(3)), int(m.group(1)), int(m.group(2))))
            d += timedelta(days=1)
    return out


def _after_holiday(cal: HolidayCalendar, d: date) -> bool:
    """The first day after a holiday that fell Monday to Saturday (the couriers' round skipped), across the
    Sunday and other days off between."""
    back = d - timedelta(days=1)
    while back.weekday() == 6 or cal.name(back):
        if cal.name(back) and back.weekday() != 6:
            return True
        back -= timedelta(days=1)
    return False


def lockers_lt_lv_ee(seed: int) -> Estate:
    """Blind (twenty-first round): a Baltic parcel-locker network's parcels placed into lockers per day by area
    (six: Vilnius 8,000 an ordinary Monday, Kaunas 5,500 and Klaipėda 3,500 on Lithuania's holidays, the estate's
    calendar (the `holidays` package's LT); Riga 5,000 and the rest of Latvia 2,500 on Latvia's (LV) and Estonia
    6,000 on Estonia's (EE), each configured by the owner as the area's own calendar; in an order set by the seed).
    The couriers' week (`_LOCKER_WEEK`); an area's holiday runs like a Sunday and, when it fell Monday to Saturday,
    its next working day carries the backlog x1.35. Latvia moves holidays that fall on a weekend to the Monday after
    (Restoration of Independence Day on Sunday 4 May 2025 observed on Monday 5 May: in Latvia's calendar, not the
    others') and swaps bridge days for worked Saturdays (the Saturday a full weekday there: in no calendar, the
    package names only the day off). In no calendar: Singles' Day's parcels from Asian marketplaces, 12 to 25 days
    after 11 November (x1.35); the Christmas peak (1-20 December x1.4, 21-23 x1.15, from 27 December to 10 January
    x0.75); July's holidays x0.9; a snowstorm closing Tallinn's roads on Tuesday 13 January 2026 (Estonia x0.35, the
    next day x1.6). A supermarket chain's stores host lockers across Estonia from Monday 1 September 2025 (+30%
    there, accepted by the owner as a shift). The Kaunas sorting hub's conveyor stopped on Tuesday 8 October 2024
    (the Lithuanian areas x0.45; unlabelled, history only). Poisson counts with 4% extra noise per area; +12% a
    year. From 1 January 2024: 400 days read, to 2 February 2026 evaluated."""
    rng = random.Random(seed)
    cals = {c: HolidayCalendar(country=c) for c in ("LT", "LV", "EE")}
    areas = _unequal(rng, list(_LOCKER_DAILY))
    worked = {c: _worked_saturdays(cal, range(2024, 2027)) for c, cal in cals.items()}
    start, n = date(2024, 1, 1), 764
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        from_singles = (d - date(d.year, 11, 11)).days
        wave = _SINGLES_WAVE[0] <= from_singles <= _SINGLES_WAVE[1]
        peak = 1.4 if d.month == 12 and d.day <= 20 else 1.15 if d.month == 12 and d.day <= 23 else 1.0
        lull = (d.month == 12 and d.day >= 27) or (d.month == 1 and d.day <= 10)
        season = peak * (1.35 if wave else 1.0) * (0.75 if lull else 0.9 if d.month == 7 else 1.0)
        flags = set()
        groups = []
        for a in areas:
            country = _LOCKER_COUNTRY[a]
            cal = cals[country]
            weekday = 0 if d in worked[country] else d.weekday()
            if cal.name(d):
                f = _LOCKER_WEEK[6]
                flags.add("holiday")
            else:
                f = _LOCKER_WEEK[weekday]
                if _after_holiday(cal, d):
                    f *= 1.35
                    flags.add("after_holiday")
            f *= season * 1.12 ** (i / 365.25)
            if a == "estonia":
                f *= 1.3 if d >= _RIMI_LOCKERS else 1.0
                f *= 0.35 if d == _TALLINN_SNOWSTORM else 1.6 if d == _TALLINN_SNOWSTORM + timedelta(days=1) else 1.0
            f *= 0.45 if country == "LT" and d == _HUB_FAILURE else 1.0
            groups.append(_poisson(rng, _LOCKER_DAILY[a] * f * math.exp(rng.gauss(0, 0.04))))
        series.append((at, groups))
        if d == _HUB_FAILURE:
            incidents.add(at)
        if d in (_TALLINN_SNOWSTORM, _TALLINN_SNOWSTORM + timedelta(days=1)):
            cats[at] = "snowstorm"
        elif "holiday" in flags:
            cats[at] = "holiday"
        elif "after_holiday" in flags:
            cats[at] = "after_holiday"
        elif wave:
            cats[at] = "singles_day"
        elif d.month == 12 or lull:
            cats[at] = "christmas"
    shift = datetime(_RIMI_LOCKERS.year, _RIMI_LOCKERS.month, _RIMI_LOCKERS.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    calendars: list[HolidayCalendar | None] = [None if _LOCKER_COUNTRY[a] == "LT" else cals[_LOCKER_COUNTRY[a]]
                                               for a in areas]
    return Estate("lockers_lt_lv_ee", "day", series, 400, cals["LT"], cats, [shift], incidents=incidents,
                  group_calendars=calendars)


# The twenty-second round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (four, five, three, six)

# a St. John's (Newfoundland) parking app's sessions started per local hour against the zone's busiest hour on an
# ordinary weekday: downtown's office commuters at 08:00 and its bar crowd at night, the hospital's and university's
# shift changes (07:00 and 19:00) and visiting hours, the harbourfront's sightseers, Mount Pearl's shoppers
_PARKING_HOURS = {
    "downtown": [0.14, 0.1, 0.06, 0.02, 0.01, 0.01, 0.06, 0.5, 1.0, 0.75, 0.6, 0.7, 0.9, 0.75, 0.6, 0.5, 0.45, 0.42,
                 0.38, 0.32, 0.3, 0.28, 0.24, 0.18],
    "health_sciences": [0.08, 0.04, 0.03, 0.03, 0.04, 0.12, 1.0, 0.85, 0.7, 0.65, 0.7, 0.6, 0.62, 0.75, 0.7, 0.5,
                        0.4, 0.45, 0.8, 0.55, 0.35, 0.2, 0.1, 0.06],
    "harbourfront": [0.05, 0.03, 0.02, 0.01, 0.01, 0.02, 0.08, 0.25, 0.45, 0.7, 0.9, 1.0, 1.0, 0.95, 0.9, 0.8, 0.65,
                     0.5, 0.45, 0.5, 0.45, 0.3, 0.15, 0.08],
    "mount_pearl": [0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.05, 0.25, 0.5, 0.7, 0.85, 1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7,
                    0.55, 0.45, 0.3, 0.15, 0.05, 0.01],
}
# by weekday (Monday first): downtown's offices empty at weekends (on-street parking is free on Sundays), the
# harbourfront's visitors come at weekends, the hospital's visitors a little less
_PARKING_WEEK = {
    "downtown": [1.0, 1.0, 1.0, 1.05, 1.1, 0.7, 0.3],
    "health_sciences": [1.0, 1.0, 1.0, 1.0, 0.95, 0.6, 0.55],
    "harbourfront": [0.85, 0.85, 0.9, 0.95, 1.05, 1.3, 1.25],
    "mount_pearl": [0.95, 0.95, 0.95, 1.0, 1.1, 1.05, 0.35],
}
# an ordinary weekday's sessions at the zone's busiest hour; Mount Pearl's few municipal lots are some twenty times
# smaller than downtown's streets
_PARKING_PEAK = {"downtown": 420.0, "health_sciences": 260.0, "harbourfront": 110.0, "mount_pearl": 19.0}
_GEORGE_STREET_NIGHTS = 1.9  # downtown's Thursday to Saturday nights (21:00-02:59: George Street's bars)
_GEORGE_STREET_FESTIVAL = (date(2026, 7, 30), date(2026, 8, 4))  # nights of concerts on George Street (no calendar)
# cruise ships alongside in St. John's harbour (the port's schedule, in no calendar): its passengers ashore 08:00-17:59
_CRUISE_CALLS = [date(2026, 7, 8), date(2026, 7, 17), date(2026, 7, 24), date(2026, 7, 30), date(2026, 8, 4),
                 date(2026, 8, 12)]
# the Royal St. John's Regatta: a civic holiday in St. John's on the first Wednesday of August, weather permitting;
# the owner's calendar holds the planned Wednesday, the race committee postponed it a day for wind (the call is
# made at 07:00 on the morning itself)
_REGATTA_PLANNED = date(2026, 8, 5)
_REGATTA_HELD = date(2026, 8, 6)
_ORANGEMENS_DAY = date(2026, 7, 13)  # a provincial government holiday (its offices shut), in no package calendar
_COINLESS = datetime(2026, 8, 10, 8)  # local: downtown's coin pay stations removed, the app or a card at the meter
_GATEWAY_OUTAGE = (datetime(2026, 7, 21, 14), datetime(2026, 7, 21, 16))  # local: the app's payment gateway down


def _night_of(local: datetime) -> date:
    """The evening a local hour's night belongs to (00:00-05:59 is the previous day's night out)."""
    return (local - timedelta(hours=6)).date()


def parking_stjohns_hourly(seed: int) -> Estate:
    """Blind (twenty-second round): a St. John's parking app's sessions started per local hour by zone (four:
    downtown 420 at its busiest ordinary weekday hour, the health sciences centre and university 260, the
    harbourfront 110 and Mount Pearl's municipal lots 19, some twenty times smaller than downtown; in an order set by
    the seed), in America/St_Johns (Newfoundland Daylight Time, 2.5 hours behind UTC: every point on :30 UTC; no
    clock change inside), on Newfoundland's holidays (the `holidays` package's CA-NL) plus the date the owner
    configured for the Royal St. John's Regatta, Wednesday 5 August 2026 (the civic holiday of the first Wednesday
    of August). Every hour is a partition (nights of a handful of sessions, Mount Pearl's at zero). Each zone's day
    (`_PARKING_HOURS`) and week (`_PARKING_WEEK`); downtown's Thursday to Saturday nights x1.9 (21:00-02:59). In no
    calendar: the Regatta postponed by the race committee for wind to Thursday 6 August (the owner's Wednesday an
    ordinary working day but for its 06:00-07:59, x0.8, everyone waiting for the 07:00 call; the Thursday like a
    Saturday in downtown, the hospital zone and Mount Pearl, downtown's evening from 18:00 x1.6, the harbourfront
    x1.5 from 10:00); the George Street Festival's nights (30 July to 4 August, 20:00-02:59 downtown x2.2);
    cruise ships alongside (08:00-17:59: the harbourfront x1.9, downtown x1.1); Orangemen's Day (Monday 13 July,
    government offices shut: downtown x0.8 by day). From Monday 10 August 08:00 downtown's coin pay stations are
    gone (+40% of downtown's sessions through the app, accepted by the owner as a shift). The app's payment gateway
    failed on Tuesday 21 July 14:00-16:59 (every zone x0.1; unlabelled, history only). Poisson counts with 5% extra
    noise per hour and zone. From Saturday 4 July 2026: four weeks read, Saturday 1 August to Friday 14 August
    evaluated."""
    rng = random.Random(seed)
    zone = "America/St_Johns"
    cal = HolidayCalendar(country="CA", subdiv="NL", dates={_REGATTA_PLANNED: "Royal St. John's Regatta"})
    tz = ZoneInfo(zone)
    zones = _unequal(rng, list(_PARKING_PEAK))
    start, first, last = date(2026, 7, 4), date(2026, 8, 1), date(2026, 8, 14)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            night = _night_of(local)
            nightlife = h >= 21 or h <= 2
            festival = _GEORGE_STREET_FESTIVAL[0] <= night <= _GEORGE_STREET_FESTIVAL[1] and (h >= 20 or h <= 2)
            cruise = d in _CRUISE_CALLS and 8 <= h <= 17
            outage = _GATEWAY_OUTAGE[0] <= local <= _GATEWAY_OUTAGE[1]
            groups = []
            for z in zones:
                like = 5 if d == _REGATTA_HELD and z != "harbourfront" else d.weekday()
                f = _PARKING_WEEK[z][like] * _PARKING_HOURS[z][h]
                if z == "downtown":
                    f *= _GEORGE_STREET_NIGHTS if nightlife and night.weekday() in (3, 4, 5) else 1.0
                    f *= 2.2 if festival else 1.0
                    f *= 1.1 if cruise else 1.0
                    f *= 1.6 if d == _REGATTA_HELD and h >= 18 else 1.0
                    f *= 0.8 if d == _ORANGEMENS_DAY and 7 <= h <= 17 else 1.0
                    f *= 1.4 if local >= _COINLESS else 1.0
                elif z == "harbourfront":
                    f *= 1.9 if cruise else 1.0
                    f *= 1.5 if d == _REGATTA_HELD and h >= 10 else 1.0
                if d == _REGATTA_PLANNED and 6 <= h <= 7 and z in ("downtown", "health_sciences"):
                    f *= 0.8
                f *= 0.1 if outage else 1.0
                groups.append(_poisson(rng, _PARKING_PEAK[z] * f * math.exp(rng.gauss(0, 0.05))))
            at = _utc_hour(local, tz)
            series.append((at, groups))
            if outage:
                incidents.add(at)
            if d == _REGATTA_HELD:
                cats[at] = "regatta"
            elif d == _REGATTA_PLANNED:
                cats[at] = "regatta_postponed"
            elif festival:
                cats[at] = "george_street_festival"
            elif cruise:
                cats[at] = "cruise_ship"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_COINLESS, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 24 * 3]:  # the next three days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("parking_stjohns_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Ljubljana museum group's visitors by weekday (Monday first; every museum shut on Mondays: no partition)
_MUSEUM_WEEK = [0.0, 0.75, 0.8, 0.85, 0.95, 1.45, 1.3]
# an ordinary Tuesday to Sunday's visitors (the week's mean day) by museum; the Museum of Architecture and Design,
# out at Fužine castle, about fifteen times smaller than the National Gallery
_MUSEUM_DAILY = {"national_gallery": 520.0, "national_museum": 380.0, "modern_art": 240.0, "city_museum": 300.0,
                 "architecture": 34.0}
# by month (read at mid-month), against the year's mean: the city's tourists in summer and at the Christmas fair,
# school groups in term time (the National Museum's and Architecture's weekdays)
_MUSEUM_SEASONS = {
    "national_gallery": [0.8, 0.85, 0.95, 1.0, 1.05, 1.05, 1.2, 1.25, 1.05, 0.95, 0.85, 1.0],
    "national_museum": [0.85, 0.95, 1.05, 1.1, 1.15, 1.0, 0.85, 0.85, 1.0, 1.05, 1.0, 1.0],
    "modern_art": [0.9, 0.95, 1.0, 1.0, 1.0, 1.0, 0.95, 0.95, 1.05, 1.1, 1.05, 1.0],
    "city_museum": [0.75, 0.8, 0.9, 1.0, 1.05, 1.1, 1.35, 1.4, 1.1, 0.95, 0.85, 1.0],
    "architecture": [0.85, 0.9, 1.05, 1.1, 1.15, 1.0, 0.85, 0.85, 1.0, 1.05, 1.05, 0.95],
}
_SCHOOL_TRIPS = {"national_museum": 0.25, "architecture": 0.3}  # term-time weekdays' school groups (no calendar)
# free admission on the first Sunday of each month (the museums' own rule, in no calendar): the year's busiest days
_FREE_SUNDAY = {"national_gallery": 2.6, "national_museum": 2.4, "modern_art": 2.2, "city_museum": 2.5,
                "architecture": 1.7}
_MUSEUM_NIGHT = 3.4  # the Summer Museum Night (the third Saturday of June): open to midnight and free (no calendar)
_PRESEREN_DAY = 2.3  # Prešeren Day (8 February), the culture holiday: every museum open and free
_MUSEUMS_CLOSED = ("New Year's Day", "Easter Sunday", "Day of Remembrance for the Dead", "Christmas Day")
# the City Museum shut for a new climate-control plant, then reopened: its visitors climb back from 55% over eight
# weeks (word of mouth, schools rebooking)
_CITY_MUSEUM_WORKS = (date(2024, 10, 15), date(2024, 12, 1))
_CITY_MUSEUM_RAMP = (date(2024, 12, 3), date(2025, 1, 26), 0.55)
_URBANA_CARD = date(2025, 7, 1)  # the city's tourist card starts to include the National Gallery
_TICKETING_OUTAGE = date(2024, 8, 10)  # the group's ticketing system down (cash tickets sold, not recorded)


def _first_sunday(d: date) -> bool:
    return d.weekday() == 6 and d.day <= 7


def _museum_night(d: date) -> bool:
    """The third Saturday of June."""
    return d.month == 6 and d.weekday() == 5 and 15 <= d.day <= 21


def museums_si(seed: int) -> Estate:
    """Blind (twenty-second round): a Ljubljana museum group's visitors per open day by museum (five: the National
    Gallery 520 an ordinary day, the National Museum 380, the City Museum 300, Modern Art 240 and the Museum of
    Architecture and Design 34, fifteen times smaller than the Gallery; in an order set by the seed), on Slovenia's
    holidays (the `holidays` package's SI). Tuesday to Sunday: every museum is shut on Mondays and on New Year's
    Day (1 and 2 January), Easter Sunday, 1 November and Christmas Day (no partition); other holidays open like a Sunday, Prešeren
    Day (8 February, the culture holiday) free for all (x2.3). The week (`_MUSEUM_WEEK`), each museum's months
    (`_MUSEUM_SEASONS`: the city's tourists in summer, school groups in term). In no calendar: free admission on the
    first Sunday of every month (x1.7 to x2.6: the busiest days of the year), the Summer Museum Night on the third
    Saturday of June (x3.4), school groups on term-time weekdays (the National Museum +25%, Architecture +30%, not
    in July and August nor the Christmas week), the Christmas fair's tourists (26 December to 6 January x1.3). The
    City Museum closed for works from 15 October to 1 December 2024 (zero there) and reopened on 3 December at 55%
    of its level, climbing back to all of it by 26 January 2025. From Tuesday 1 July 2025 the city's tourist card
    includes the National Gallery (+30% there, accepted by the owner as a shift). The ticketing system failed on
    Saturday 10 August 2024 (every museum x0.25; unlabelled, history only). Poisson counts with 6% extra noise per
    museum; +4% a year. From 2 January 2024 (the open days of 763 calendar days, the first Wednesday 3 January, the
    last Sunday 1 February 2026): from Tuesday 7 January 2025 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SI")
    museums = _unequal(rng, list(_MUSEUM_DAILY))
    start, n = date(2024, 1, 2), 763
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        holiday = cal.name(d)
        if d.weekday() == 0 or any(name in holiday for name in _MUSEUMS_CLOSED):
            continue
        at = datetime(d.year, d.month, d.day)
        free, night = _first_sunday(d), _museum_night(d)
        fair = (d.month == 12 and d.day >= 26) or (d.month == 1 and d.day <= 6)
        term = d.month not in (7, 8) and not fair and not holiday
        groups = []
        for m in museums:
            f = _MUSEUM_WEEK[6 if holiday else d.weekday()] * _season_at(_MUSEUM_SEASONS[m], d)
            f *= 1 + _SCHOOL_TRIPS.get(m, 0.0) if term and d.weekday() <= 4 else 1.0
            f *= _FREE_SUNDAY[m] if free else 1.0
            f *= _MUSEUM_NIGHT if night else 1.0
            f *= _PRESEREN_DAY if "Prešeren" in holiday else 1.0
            f *= 1.3 if fair else 1.0
            f *= 1.04 ** (i / 365.25)
            if m == "city_museum":
                f *= 0.0 if _CITY_MUSEUM_WORKS[0] <= d <= _CITY_MUSEUM_WORKS[1] else _ramp(d, *_CITY_MUSEUM_RAMP)
            f *= 1.3 if m == "national_gallery" and d >= _URBANA_CARD else 1.0
            f *= 0.25 if d == _TICKETING_OUTAGE else 1.0
            groups.append(_poisson(rng, _MUSEUM_DAILY[m] * f * math.exp(rng.gauss(0, 0.06))))
        series.append((at, groups))
        if d == _TICKETING_OUTAGE:
            incidents.add(at)
        if night:
            cats[at] = "museum_night"
        elif free:
            cats[at] = "free_sunday"
        elif holiday:
            cats[at] = "holiday"
        elif fair:
            cats[at] = "christmas_fair"
        elif _CITY_MUSEUM_RAMP[0] <= d < _CITY_MUSEUM_RAMP[1]:
            cats[at] = "reopening"
    shift = datetime(_URBANA_CARD.year, _URBANA_CARD.month, _URBANA_CARD.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 25]:  # the next four weeks' open days
        cats.setdefault(at, "after_shift")
    evaluate_from = next(i for i, at in enumerate(stamps) if at >= datetime(2025, 1, 7))
    return Estate("museums_si", "day", series, evaluate_from, cal, cats, [shift], incidents=incidents)


# a Uruguayan dairy cooperative's milk received per day, by month (read at mid-month) against the year's mean: the
# spring flush on new pasture (September to November), the summer's heat and the autumn's dry-off and calving gap
_MILK_SEASON = [0.95, 0.88, 0.85, 0.8, 0.78, 0.82, 0.92, 1.05, 1.2, 1.3, 1.25, 1.08]
_MILK_DAILY = {"san_jose": 1_450.0, "florida": 1_100.0, "colonia": 780.0}  # thousand litres an ordinary day, by basin
_MILK_GROWTH = 0.02  # a year's growth in milk per cow
# the 2022-23 drought, Uruguay's worst in decades (in no calendar): pastures burnt, cows fed on reserves
_DROUGHT = (date(2022, 11, 1), date(2023, 4, 15), 0.82)
_HEAT_WAVE = (date(2026, 1, 19), date(2026, 1, 31), 0.86)  # cows' yield down in a heat wave (in no calendar)
_RIVAL_FARMERS = date(2026, 3, 1)  # a rival processor closes its Florida plant; its farmers deliver to the co-op
_PLANT_CONFLICT = (date(2023, 5, 22), date(2023, 5, 27))  # a union conflict at the reception plant: milk dumped


def _half_months(first: date, count: int) -> list[tuple[date, date]]:
    """`count` half-months from `first` (a 1st): the 1st to the 15th and the 16th to the month's end, as a
    partition definition on the cron "0 0 1,16 * *" keys them (on their first day)."""
    out, d = [], first
    for _ in range(count):
        if d.day == 1:
            end = date(d.year, d.month, 15)
        else:
            end = date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)
        out.append((d, end))
        d = end + timedelta(days=1)
    return out


def milk_uy_semimonthly(seed: int) -> Estate:
    """Blind (twenty-second round): a Uruguayan dairy cooperative's milk received per half-month by basin (three: San
    José 1,450 thousand litres an ordinary day, Florida 1,100 and Colonia 780; in an order set by the seed): the
    co-op settles with its farmers per quincena, so the reception table is partitioned on the 1st to the 15th and the
    16th to the month's end, keyed on the first day (a partition definition on the cron "0 0 1,16 * *"). A half-month
    is the sum of its days: the second half holds 13 to 16 days (February's 13 or 14, a 31-day month's 16). Cows are
    milked every day and the tankers collect every day, so Uruguay's holidays (the `holidays` package's UY, the
    estate's calendar) move nothing: 1 May's milk, the one day the plant shuts, is collected on 2 May, inside the
    same half-month. The year (`_MILK_SEASON`): the spring flush from September to November. In no calendar: the
    2022-23 drought (1 November 2022 to 15 April 2023 x0.82, history), a heat wave from 19 to 31 January 2026
    (x0.86). From 1 March 2026 a rival processor's Florida plant closes and its farmers deliver to the co-op (+35%
    in Florida, accepted by the owner as a shift). A union conflict at the reception plant dumped milk from 22 to 27
    May 2023 (those days x0.3; the half-month unlabelled, history only). +2% a year; 2.5% noise per basin and
    half-month. From 1 January 2022: three years read, 2025 and 2026 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="UY")
    basins = _unequal(rng, list(_MILK_DAILY))
    halves = _half_months(date(2022, 1, 1), 120)
    series, cats, incidents = [], {}, set()
    for first, last in halves:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        groups = []
        for b in basins:
            litres = 0.0
            for d in days:
                f = _season_at(_MILK_SEASON, d) * (1 + _MILK_GROWTH) ** ((d - halves[0][0]).days / 365.25)
                f *= _DROUGHT[2] if _DROUGHT[0] <= d <= _DROUGHT[1] else 1.0
                f *= _HEAT_WAVE[2] if _HEAT_WAVE[0] <= d <= _HEAT_WAVE[1] else 1.0
                f *= 0.3 if _PLANT_CONFLICT[0] <= d <= _PLANT_CONFLICT[1] else 1.0
                f *= 1.35 if b == "florida" and d >= _RIVAL_FARMERS else 1.0
                litres += _MILK_DAILY[b] * f
            groups.append(_noisy(rng, litres, 0.025))
        series.append((at, groups))
        if first <= _PLANT_CONFLICT[0] <= last:
            incidents.add(at)
        if first <= _HEAT_WAVE[1] and _HEAT_WAVE[0] <= last:
            cats[at] = "heat_wave"
        elif first.month == 2 and first.day == 16:
            cats[at] = "short_half"
        elif (first.month, first.day) >= (9, 16) and first.month <= 11:
            cats[at] = "spring_flush"
    shift = datetime(_RIVAL_FARMERS.year, _RIVAL_FARMERS.month, _RIVAL_FARMERS.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 5]:  # the next two months' halves
        cats.setdefault(at, "after_shift")
    return Estate("milk_uy_semimonthly", "day", series, 72, cal, cats, [shift], incidents=incidents)


# a Malaysian self-service laundromat chain's wash and dry cycles by state (six), each state on its own holidays
# (the `holidays` package's MY subdivisions; Selangor, the head office's, is the estate's calendar)
_LAUNDRY_STATES = {"selangor": "10", "kuala_lumpur": "14", "johor": "01", "penang": "07", "kelantan": "03",
                   "sabah": "12"}
_LAUNDRY_DAILY = {"selangor": 5_200.0, "kuala_lumpur": 3_600.0, "johor": 2_400.0, "penang": 1_500.0,
                  "kelantan": 700.0, "sabah": 450.0}  # an ordinary working day's cycles
# the weekend (weekday numbers): Kelantan's Friday and Saturday; Johor's too until it moved back to Saturday and
# Sunday on 1 January 2025; the others' Saturday and Sunday
_JOHOR_NEW_WEEKEND = date(2025, 1, 1)
_LAUNDRY_WEEKEND = (1.55, 1.35)  # the weekend's first and second day against a working day (duvets, school uniforms)
_LAUNDRY_EVE = 1.1  # the evening before the weekend
_URBAN = {"selangor", "kuala_lumpur", "johor", "penang"}  # the cities people leave to go home for Raya
_RAYA = [date(2024, 4, 10), date(2025, 3, 31), date(2026, 3, 21)]  # Hari Raya Aidilfitri's first day
_RAYA_CLEANING = 7  # days before Raya that curtains, carpets and bedding are washed (in no calendar)
_CNY = [date(2024, 2, 10), date(2025, 1, 29), date(2026, 2, 17)]
_CNY_STATES = {"kuala_lumpur", "penang", "selangor"}  # where most of the chain's Chinese customers live
_JOHOR_TAKEOVER = date(2026, 1, 12)  # a rival's Johor Bahru outlets rebranded into the chain (a Monday)
_TELEMETRY_OUTAGE = date(2024, 10, 17)  # the machines' cloud platform down (cycles paid by coin not counted)


def _laundry_weekend(state: str, d: date) -> tuple[int, int]:
    """A state's weekend (weekday numbers) on `d`."""
    if state == "kelantan" or (state == "johor" and d < _JOHOR_NEW_WEEKEND):
        return (4, 5)
    return (5, 6)


def _laundry_day(state: str, d: date, cal: HolidayCalendar) -> float:
    """One state's cycles on `d` against an ordinary working day's: its weekend, its holidays (a day at home), Raya
    and the Lunar New Year (their run-ups and the taboo on washing in the New Year's first two days)."""
    weekend = _laundry_weekend(state, d)
    if d.weekday() in weekend:
        f = _LAUNDRY_WEEKEND[weekend.index(d.weekday())]
    elif cal.name(d):
        f = _LAUNDRY_WEEKEND[1]  # a holiday at home: a weekend day's washing
    else:
        f = _LAUNDRY_EVE if (d + timedelta(days=1)).weekday() == weekend[0] else 1.0
    for raya in _RAYA:
        to_raya = (raya - d).days
        if 2 <= to_raya <= _RAYA_CLEANING:
            f *= 1.3
        elif to_raya == 1:
            f *= 0.75 if state in _URBAN else 1.2  # the exodus home (balik kampung)
        elif -4 <= to_raya <= 0:
            f *= 0.45 if state in _URBAN else 1.25 if state == "kelantan" else 0.9
    for cny in _CNY:
        to_cny = (cny - d).days
        if state in _CNY_STATES and 1 <= to_cny <= 5:
            f *= 1.25  # spring cleaning before the New Year
        elif 0 <= -to_cny <= 1:
            f *= 0.5 if state in _CNY_STATES else 0.8  # no washing on the New Year's first two days
    return f


def laundries_my(seed: int) -> Estate:
    """Blind (twenty-second round): a Malaysian self-service laundromat chain's wash and dry cycles per day by state
    (six: Selangor 5,200 an ordinary working day, Kuala Lumpur 3,600, Johor 2,400, Penang 1,500, Kelantan 700 and
    Sabah 450; in an order set by the seed), each state on its own holidays (the `holidays` package's MY
    subdivisions, configured by the owner per state; Selangor's is the estate's calendar). Its calendar holds the
    one-off holiday the government declared for Monday 15 September 2025 (the eve of Malaysia Day; in no other
    year), and Raya's "additional" Friday of 2026. Every day: weekends busiest (the weekend's first day x1.55, its
    second x1.35, the evening before x1.1); Kelantan's weekend is Friday and Saturday, Johor's was until it moved to
    Saturday and Sunday on 1 January 2025 (in the history); a holiday runs like the weekend's second day. In no
    calendar: the week before Hari Raya Aidilfitri x1.3 (curtains, carpets, bedding), its eve and its first five
    days the cities emptied (x0.75, then x0.45; Kelantan, where they go home, x1.2 and x1.25; Sabah x0.9); the five
    days before the Lunar New Year x1.25 in Kuala Lumpur, Penang and Selangor (spring cleaning) and its first two
    days x0.5 there (x0.8 elsewhere: washing then washes the luck away). From Monday 12 January 2026 a rival's
    Johor Bahru outlets carry the chain's name (+35% in Johor, accepted by the owner as a shift). The machines'
    cloud platform failed on Thursday 17 October 2024 (every state x0.3; unlabelled, history only). Poisson counts
    with 5% extra noise per state; +10% a year (new outlets). From Monday 1 July 2024 (762 days, to 1 August 2026):
    from Tuesday 5 August 2025 evaluated."""
    rng = random.Random(seed)
    cals = {s: HolidayCalendar(country="MY", subdiv=code) for s, code in _LAUNDRY_STATES.items()}
    states = _unequal(rng, list(_LAUNDRY_DAILY))
    start, n = date(2024, 7, 1), 762
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        groups = []
        for s in states:
            f = _laundry_day(s, d, cals[s]) * 1.1 ** (i / 365.25)
            f *= 1.35 if s == "johor" and d >= _JOHOR_TAKEOVER else 1.0
            f *= 0.3 if d == _TELEMETRY_OUTAGE else 1.0
            groups.append(_poisson(rng, _LAUNDRY_DAILY[s] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, groups))
        if d == _TELEMETRY_OUTAGE:
            incidents.add(at)
        to_raya = min(((raya - d).days for raya in _RAYA), key=abs)
        to_cny = min(((cny - d).days for cny in _CNY), key=abs)
        if -4 <= to_raya <= 1:
            cats[at] = "raya"
        elif 2 <= to_raya <= _RAYA_CLEANING:
            cats[at] = "raya_cleaning"
        elif -1 <= to_cny <= 5:
            cats[at] = "lunar_new_year"
        elif "Additional holiday" in cals["selangor"].name(d):
            cats[at] = "one_off_holiday"
        elif any(cal.name(d) for cal in cals.values()):
            cats[at] = "holiday"
    shift = datetime(_JOHOR_TAKEOVER.year, _JOHOR_TAKEOVER.month, _JOHOR_TAKEOVER.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    calendars: list[HolidayCalendar | None] = [None if s == "selangor" else cals[s] for s in states]
    return Estate("laundries_my", "day", series, 400, cals["selangor"], cats, [shift], incidents=incidents,
                  group_calendars=calendars)


# a Tehran fuel-card network's fills (transactions at the pump) per local hour against a district's busiest hour on
# an ordinary working day (Saturday to Wednesday): the morning's school run and commute, the afternoon's taxis, the
# evening's return home (its busiest hour), a night of taxis and trucks
_FUEL_HOURS = [0.22, 0.16, 0.12, 0.1, 0.1, 0.16, 0.42, 0.85, 0.9, 0.7, 0.62, 0.62, 0.66, 0.68, 0.7, 0.75, 0.85, 0.95,
               1.0, 0.92, 0.75, 0.6, 0.45, 0.32]
# Friday, Iran's weekend: a late morning, day trips and family visits, a busy evening back
_FUEL_FRIDAY = [0.28, 0.2, 0.14, 0.1, 0.08, 0.08, 0.15, 0.3, 0.45, 0.6, 0.72, 0.78, 0.8, 0.75, 0.72, 0.72, 0.75, 0.8,
                0.85, 0.85, 0.78, 0.65, 0.5, 0.35]
_FUEL_THURSDAY = (0.8, 1.15)  # Thursday: government offices shut (a lighter morning), trips north from 13:00
# an ordinary working day's fills at the district's busiest hour; Pardis, a satellite town's two stations, some
# thirty times smaller than the south's
_FUEL_PEAK = {"south": 520.0, "north": 380.0, "centre": 300.0, "pardis": 18.0}
# days the province's emergency committee shut schools, universities and offices for the air (announced the evening
# before; in no calendar): Sunday 23 November bridged to Monday's holiday, then Sunday 14 and Monday 15 December
_AIR_CLOSURES = [date(2025, 11, 23), date(2025, 12, 14), date(2025, 12, 15)]
# the first day of a Persian month (1 Azar and 1 Dey 1404): each card's monthly quota at the subsidised price is
# credited at 00:00, and the drivers whose cards ran dry in the month's last days queue from midnight (no calendar)
_QUOTA_DAYS = [date(2025, 11, 22), date(2025, 12, 22)]
_YALDA = date(2025, 12, 21)  # Shab-e Yalda, the longest night (30 Azar): families drive to the elders' homes
_THIRD_TIER = datetime(2025, 12, 17, 0)  # local: a third, higher price for petrol beyond the quota takes effect
_FUEL_CARD_OUTAGE = (datetime(2025, 12, 2, 10), datetime(2025, 12, 2, 15))  # local: the card system down (an attack)


def _fuel_hour(d: date, h: int) -> float:
    """An hour's fills against the busiest hour of an ordinary working day: Friday's day, Thursday's offices shut and
    trips north, the month's last two days (cards dry), a closure for the air, the quota's first day, Yalda."""
    if d.weekday() == 4:
        f = _FUEL_FRIDAY[h]
    else:
        f = _FUEL_HOURS[h] * (_FUEL_THURSDAY[h >= 13] if d.weekday() == 3 else 1.0)
    if any(0 < (q - d).days <= 2 for q in _QUOTA_DAYS) and 6 <= h <= 23:
        f *= 0.92
    if d in _AIR_CLOSURES:
        f *= 0.55 if 6 <= h <= 9 else 0.85 if h <= 17 else 0.95
    if d in _QUOTA_DAYS:
        f *= 2.0 if h <= 2 else 1.15 if 6 <= h <= 21 else 1.0
    if d == _YALDA:
        f *= 1.25 if 16 <= h <= 20 else 0.8 if h >= 21 else 1.0
    if d == _YALDA + timedelta(days=1) and h <= 2:
        f *= 1.3  # the drive home after midnight
    return f


def fuel_tehran_hourly(seed: int) -> Estate:
    """Blind (twenty-third round): a Tehran fuel-card network's fills per local hour by district (four: the south
    520 at an ordinary working day's busiest hour, the north 380, the centre 300 and Pardis 18, a satellite town's
    two stations some thirty times smaller than the south; in an order set by the seed), in Asia/Tehran (three and a
    half hours ahead of UTC, no daylight saving since 2022: every point on :30 UTC), on Iran's holidays (the
    `holidays` package's IR; none in the evaluated fortnight). Every hour is a partition (stations open round the
    clock). Working days Saturday to Wednesday (`_FUEL_HOURS`), Thursday's offices shut (x0.8 to 12:59, x1.15 from
    13:00: trips north), Friday's weekend (`_FUEL_FRIDAY`). In no calendar: the province's closures for the air
    (Sunday 23 November, Sunday 14 and Monday 15 December 2025, announced the evening before: x0.55 06:00-09:59,
    x0.85 to 17:59, x0.95 after), the monthly fuel quota credited on the first day of each Persian month (Saturday
    22 November and Monday 22 December: queues from midnight, x2.0 00:00-02:59, x1.15 06:00-21:59; the two days
    before x0.92 by day, cards dry), Shab-e Yalda (Sunday 21 December: x1.25 16:00-20:59, x0.8 21:00-23:59, x1.3
    from 00:00 to 02:59 the next morning), the eve of the new price (Tuesday 16 December 16:00-23:59 x1.5: filling
    at the old price). From Wednesday 17 December 00:00 a third, higher price for petrol beyond the quota (x0.88
    everywhere, accepted by the owner as a shift). The fuel-card system failed in a cyberattack on Tuesday 2
    December 10:00-15:59 (x0.15: cash at the free price only; unlabelled, history only). Poisson counts with 5%
    extra noise per hour and district. From Saturday 15 November 2025: four weeks read, Saturday 13 to Friday 26
    December evaluated."""
    rng = random.Random(seed)
    zone = "Asia/Tehran"
    cal = HolidayCalendar(country="IR")
    tz = ZoneInfo(zone)
    districts = _unequal(rng, list(_FUEL_PEAK))
    start, first, last = date(2025, 11, 15), date(2025, 12, 13), date(2025, 12, 26)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            outage = _FUEL_CARD_OUTAGE[0] <= local <= _FUEL_CARD_OUTAGE[1]
            eve = d == _THIRD_TIER.date() - timedelta(days=1) and h >= 16
            f = _fuel_hour(d, h) * (1.5 if eve else 1.0) * (0.88 if local >= _THIRD_TIER else 1.0)
            f *= 0.15 if outage else 1.0
            groups = [_poisson(rng, _FUEL_PEAK[z] * f * math.exp(rng.gauss(0, 0.05))) for z in districts]
            at = _utc_hour(local, tz)
            series.append((at, groups))
            if outage:
                incidents.add(at)
            if eve:
                cats[at] = "price_eve"
            elif d in _QUOTA_DAYS:
                cats[at] = "quota_day"
            elif d == _YALDA and h >= 16:
                cats[at] = "yalda"
            elif any(0 < (q - d).days <= 2 for q in _QUOTA_DAYS):
                cats[at] = "quota_wait"
            elif d in _AIR_CLOSURES:
                cats[at] = "air_closure"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_THIRD_TIER, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 24 * 3]:  # the next three days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("fuel_tehran_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Serbian bank's ATM cash withdrawals per day by region: an ordinary Monday's withdrawals
_ATM_DAILY = {"belgrade": 42_000.0, "vojvodina": 21_000.0, "sumadija": 15_000.0, "nis": 11_000.0,
              "zlatibor": 1_500.0}
_ATM_WEEK = [1.0, 0.95, 0.95, 1.0, 1.3, 1.05, 0.6]  # Monday first: Friday's cash for the weekend, quiet Sundays
# by month (read at mid-month): Belgrade empties to the Greek seaside in July and August; Zlatibor, a mountain
# resort, lives on its ski winter and its summer
_ATM_SEASONS = {
    "belgrade": [0.95, 0.95, 1.0, 1.0, 1.02, 1.0, 0.9, 0.86, 1.0, 1.02, 1.02, 1.1],
    "vojvodina": [0.95, 0.95, 1.0, 1.0, 1.0, 1.0, 1.02, 1.04, 1.0, 1.0, 1.0, 1.08],
    "sumadija": [0.95, 0.95, 1.0, 1.0, 1.0, 1.0, 1.02, 1.04, 1.0, 1.0, 1.0, 1.08],
    "nis": [0.95, 0.95, 1.0, 1.0, 1.0, 1.0, 1.02, 1.04, 1.0, 1.0, 1.0, 1.08],
    "zlatibor": [1.7, 1.6, 1.1, 0.8, 0.8, 1.1, 1.6, 1.7, 1.0, 0.8, 0.8, 1.2],
}
# a year's fall in cash withdrawals as instant QR payments (IPS) and cards take over, day by day: no step
_CASH_DECLINE = {"belgrade": 0.09, "vojvodina": 0.06, "sumadija": 0.05, "nis": 0.05, "zlatibor": 0.03}
_ATM_PAYDAY = 25  # the bank's payroll clients pay on the 25th, brought forward to the business day before (no calendar)
# family patron saints' days (slava) most celebrated, by (month, day): the feast's shopping in cash the two days
# before, St Nicholas above all (in no calendar)
_SLAVAS = {(12, 19): 1.15, (5, 6): 1.1, (11, 21): 1.08, (11, 8): 1.06}
_PARTNER_CARDS = date(2025, 9, 1)  # a partner bank's customers withdraw free at the bank's ATMs in Vojvodina
_SWITCH_OUTAGE = date(2024, 9, 21)  # the card switch down most of a Saturday (withdrawals not recorded)


def _atm_day(d: date, region: str, cal: HolidayCalendar, paydays: set[date]) -> float:
    """A region's withdrawals on `d` against an ordinary Monday's: the week, a holiday and its eve, the New Year and
    Orthodox Christmas, the payday and the day after it, a slava's run-up, the resort's New Year."""
    f = _ATM_WEEK[d.weekday()] * _season_at(_ATM_SEASONS[region], d)
    nxt = d + timedelta(days=1)
    if cal.name(d):
        f *= 0.45 if d.month == 1 and d.day <= 2 else 0.55
    elif cal.name(nxt):
        f *= 1.25
    if (d.month, d.day) in ((12, 29), (12, 30), (12, 31)):
        f *= 1.35
    elif (d.month, d.day) == (1, 6):
        f *= 1.2  # Badnji dan, Orthodox Christmas Eve
    if region == "zlatibor" and ((d.month, d.day) >= (12, 30) or (d.month, d.day) <= (1, 3)):
        f *= 2.0  # New Year's on the mountain
    if d in paydays:
        f *= 1.35
    elif d - timedelta(days=1) in paydays:
        f *= 1.12
    for (month, day), lift in _SLAVAS.items():
        if 1 <= (date(d.year, month, day) - d).days <= 2:
            f *= lift
    return f


def withdrawals_rs(seed: int) -> Estate:
    """Blind (twenty-third round): a Serbian bank's ATM cash withdrawals per day by region (five: Belgrade 42,000
    an ordinary Monday, Vojvodina 21,000, Šumadija 15,000, Niš 11,000 and Zlatibor's mountain resort 1,500, some
    thirty times smaller than Belgrade; in an order set by the seed), on Serbia's holidays (the `holidays` package's
    RS: New Year, Orthodox Christmas, Statehood Day, the Orthodox Easter, Labour Day, Armistice Day). Every day (the
    ATMs never close): the week (`_ATM_WEEK`: Friday x1.3), a holiday x0.55 (New Year's x0.45) and its eve x1.25,
    each region's months (`_ATM_SEASONS`: Belgrade at the seaside in August, Zlatibor's ski winter and summer). In
    no calendar: the payday of the bank's payroll clients, the 25th brought forward to the business day before it
    when a weekend or holiday (x1.35, the next day x1.12); 29-31 December x1.35 and Orthodox Christmas Eve (6
    January) x1.2; Zlatibor's New Year (30 December to 3 January x2.0); the two days before the most kept slavas
    (St Nicholas 19 December x1.15, St George 6 May x1.1, St Michael 21 November x1.08, St Demetrius 8 November
    x1.06). Cash is slowly giving way to instant QR payments and cards: each region's withdrawals fall day by day
    (`_CASH_DECLINE`, Belgrade 9% a year, Zlatibor 3%), a slope and no step. From Monday 1 September 2025 a partner
    bank's customers withdraw free at the bank's ATMs in Vojvodina (+25% there, accepted by the owner as a shift).
    The card switch failed on Saturday 21 September 2024 (every region x0.2; unlabelled, history only). Poisson
    counts with 4% extra noise per region. From Monday 1 January 2024 (760 days, to 29 January 2026): from Tuesday
    4 February 2025 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="RS")
    regions = _unequal(rng, list(_ATM_DAILY))
    start, n = date(2024, 1, 1), 760
    last = start + timedelta(days=n - 1)
    open_days = set(_business_days(cal, start - timedelta(days=10), last))
    paydays = {_rolled_back(date(y, m, _ATM_PAYDAY), open_days) for y in range(2024, 2027) for m in range(1, 13)}
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        groups = []
        for r in regions:
            f = _atm_day(d, r, cal, paydays) * (1 - _CASH_DECLINE[r]) ** (i / 365.25)
            f *= 1.25 if r == "vojvodina" and d >= _PARTNER_CARDS else 1.0
            f *= 0.2 if d == _SWITCH_OUTAGE else 1.0
            groups.append(_poisson(rng, _ATM_DAILY[r] * f * math.exp(rng.gauss(0, 0.04))))
        series.append((at, groups))
        if d == _SWITCH_OUTAGE:
            incidents.add(at)
        if (d.month, d.day) >= (12, 29) or (d.month == 1 and d.day <= 7):
            cats[at] = "new_year"
        elif cal.name(d) or cal.name(d + timedelta(days=1)):
            cats[at] = "holiday"
        elif d in paydays or d - timedelta(days=1) in paydays:
            cats[at] = "payday"
        elif any(1 <= (date(d.year, m, dd) - d).days <= 2 for m, dd in _SLAVAS):
            cats[at] = "slava"
    shift = datetime(_PARTNER_CARDS.year, _PARTNER_CARDS.month, _PARTNER_CARDS.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("withdrawals_rs", "day", series, 400, cal, cats, [shift], incidents=incidents)


# Reykjavík's public swimming pools' admissions per week (Monday to Sunday, keyed on the Monday) by pool: an ordinary
# March week's; Klébergslaug, Kjalarnes' small village pool, some thirty times smaller than Laugardalslaug
_POOLS_WEEK = {"laugardalslaug": 26_000.0, "vesturbaejarlaug": 14_000.0, "sundholl": 9_000.0, "breidholtslaug": 8_000.0,
               "fossvogslaug": 6_000.0, "klebergslaug": 900.0}
_POOL_DAY = [1.0, 1.0, 1.0, 1.0, 1.0, 1.35, 1.25]  # Monday first: families at the weekend
_TOURIST_POOLS = {"laugardalslaug", "vesturbaejarlaug", "sundholl"}  # the city's pools on the tourists' maps
_POOL_SEASONS = {  # by month (read at mid-month): tourists and long light evenings in summer, the dark winter
    "tourist": [0.85, 0.88, 0.92, 0.98, 1.05, 1.2, 1.3, 1.28, 1.02, 0.92, 0.88, 0.85],
    "local": [0.92, 0.95, 0.98, 1.0, 1.05, 1.12, 1.1, 1.08, 1.0, 0.95, 0.95, 0.9],
}
# the compulsory school swimming lessons on term-time weekdays, by pool (in no calendar)
_SCHOOL_SWIMMING = {"sundholl": 0.08, "breidholtslaug": 0.12, "fossvogslaug": 0.12, "klebergslaug": 0.12}
_POOLS_CLOSED = ("Christmas Day", "New Year's Day", "Easter Sunday")
# Reykjavík schools' winter breaks (vetrarleyfi, Thursday to Monday in late February and late October; no calendar)
_WINTER_BREAKS = [(date(2022, 2, 24), date(2022, 2, 28)), (date(2022, 10, 20), date(2022, 10, 24)),
                  (date(2023, 2, 23), date(2023, 2, 27)), (date(2023, 10, 26), date(2023, 10, 30)),
                  (date(2024, 2, 22), date(2024, 2, 26)), (date(2024, 10, 24), date(2024, 10, 28)),
                  (date(2025, 2, 20), date(2025, 2, 24)), (date(2025, 10, 23), date(2025, 10, 27)),
                  (date(2026, 2, 19), date(2026, 2, 23))]
_RED_WARNINGS = [date(2022, 2, 7), date(2025, 2, 6)]  # storms' red warnings: the city shuts its pools (no calendar)
# the pool staff's union called a strike for the week of 2 June 2025 (the owner configured its days as closures);
# it was called off with a deal on the Saturday before, and the week ran as any other
_POOL_STRIKE = (date(2025, 6, 2), date(2025, 6, 6))
_FOSSVOGUR_OPENS = (date(2023, 9, 2), date(2023, 12, 23), 0.35)  # the new pool opens and fills over sixteen weeks
_HOT_TUBS = date(2025, 9, 1)  # Laugardalslaug's new hot tubs and sea-water cold tubs open (a Monday)
_TURNSTILES = (date(2023, 3, 13), date(2023, 3, 16))  # the turnstiles' counts lost (admissions by hand, not loaded)
_CAPACITY_LIMITS = date(2022, 2, 25)  # the last pandemic limits lifted (pools at 75% before)


def _term_day(d: date, cal: HolidayCalendar) -> bool:
    """A school day: a weekday from 22 August to 6 June, outside the Christmas, Easter and winter breaks and
    holidays."""
    if d.weekday() >= 5 or cal.name(d) or (date(d.year, 6, 7) <= d < date(d.year, 8, 22)):
        return False
    if (d.month == 12 and d.day >= 20) or (d.month == 1 and d.day <= 3):
        return False
    easter = _easter(d.year)
    if easter - timedelta(days=6) <= d <= easter + timedelta(days=1):
        return False
    return not any(a <= d <= b for a, b in _WINTER_BREAKS)


def _pool_day(d: date, pool: str, cal: HolidayCalendar) -> float:
    """A pool's admissions on `d` against an ordinary weekday's."""
    holiday = cal.name(d)
    if any(name in holiday for name in _POOLS_CLOSED) or d in _RED_WARNINGS:
        return 0.1 if d in _RED_WARNINGS else 0.0  # the red warning: shut from the morning, a few early swimmers
    if (d.month, d.day) in ((12, 24), (12, 31)):
        return 0.4  # Christmas Eve and New Year's Eve: open to noon
    f = 1.25 if holiday else _POOL_DAY[d.weekday()]
    f *= _season_at(_POOL_SEASONS["tourist" if pool in _TOURIST_POOLS else "local"], d)
    if _term_day(d, cal):
        f *= 1 + _SCHOOL_SWIMMING.get(pool, 0.0)
    elif d.weekday() < 5 and any(a <= d <= b for a, b in _WINTER_BREAKS):
        f *= 1.15 if pool in _TOURIST_POOLS else 1.25  # families with the day off
    return f


def pools_is_weekly(seed: int) -> Estate:
    """Blind (twenty-third round): Reykjavík's public swimming pools' admissions per week (Monday to Sunday, keyed on
    the Monday) by pool (six: Laugardalslaug 26,000 an ordinary March week, Vesturbæjarlaug 14,000, Sundhöllin 9,000,
    Breiðholtslaug 8,000, the new Fossvogur pool 6,000 and Klébergslaug, Kjalarnes' village pool, 900, some thirty
    times smaller than Laugardalslaug; in an order set by the seed), on Iceland's holidays (the `holidays` package's
    IS) plus the days the owner configured for the pool staff's strike called for 2-6 June 2025. A week is the sum of
    its days: the weekend busiest (`_POOL_DAY`), pools shut on Christmas Day, New Year's Day and Easter Sunday, open
    to noon on 24 and 31 December (x0.4, in no package calendar), other holidays like a busy Saturday (x1.25); the
    months (`_POOL_SEASONS`: the tourists' pools' summers). In no calendar: school swimming lessons on term-time
    weekdays (+8% to +12% at the neighbourhood pools; no lessons from 7 June to 21 August, at Christmas, Easter and
    the winter breaks), the schools' winter breaks (Thursday to Monday in late February and late October: +15% to
    +25% on their weekdays), storms' red warnings (Monday 7 February 2022, Thursday 6 February 2025: the pools shut,
    x0.1). The strike was called off on the Saturday before: the configured week ran as any other. Fossvogur's new
    pool opened on Saturday 2 September 2023 (nothing before: zero), at 35% of its level, filling to all of it by 23
    December. From Monday 1 September 2025 Laugardalslaug's new hot tubs and cold tubs (+20% there, accepted by the
    owner as a shift). The turnstiles' counts were lost on 13-16 March 2023 (x0.45 that week in every pool;
    unlabelled, history only); the pandemic's last capacity limits until 25 February 2022 (x0.75). Poisson counts
    with 3% extra noise per pool and week; +1.5% a year (+3% at the tourists' pools). From Monday 3 January 2022
    (212 weeks): three years read, from Monday 30 December 2024 evaluated."""
    rng = random.Random(seed)
    strike = {_POOL_STRIKE[0] + timedelta(days=k): "Pool staff strike" for k in range(5)}
    cal = HolidayCalendar(country="IS", dates=strike)  # the owner's, with the strike that never happened
    iceland = HolidayCalendar(country="IS")  # the days as they ran
    pools = _unequal(rng, list(_POOLS_WEEK))
    start, n = date(2022, 1, 3), 212
    series, cats, incidents = [], {}, set()
    for w in range(n):
        monday = start + timedelta(weeks=w)
        days = [monday + timedelta(days=k) for k in range(7)]
        at = datetime(monday.year, monday.month, monday.day)
        groups = []
        for p in pools:
            total = 0.0
            for d in days:
                f = _pool_day(d, p, iceland) * (1.03 if p in _TOURIST_POOLS else 1.015) ** ((d - start).days / 365.25)
                f *= 0.75 if d < _CAPACITY_LIMITS else 1.0
                f *= 0.45 if _TURNSTILES[0] <= d <= _TURNSTILES[1] else 1.0
                f *= 1.2 if p == "laugardalslaug" and d >= _HOT_TUBS else 1.0
                if p == "fossvogslaug":
                    f *= 0.0 if d < _FOSSVOGUR_OPENS[0] else _ramp(d, *_FOSSVOGUR_OPENS)
                total += f
            mean = _POOLS_WEEK[p] / sum(_POOL_DAY) * total
            groups.append(_poisson(rng, mean * math.exp(rng.gauss(0, 0.03))))
        series.append((at, groups))
        if any(_TURNSTILES[0] <= d <= _TURNSTILES[1] for d in days):
            incidents.add(at)
        names = [iceland.name(d) for d in days]
        if any((d.month == 12 and d.day >= 24) or (d.month == 1 and d.day == 1) for d in days):
            cats[at] = "christmas"
        elif any(_easter(d.year) - timedelta(days=3) <= d <= _easter(d.year) + timedelta(days=1) for d in days):
            cats[at] = "easter"
        elif any(d in _RED_WARNINGS for d in days):
            cats[at] = "storm"
        elif any(d in strike for d in days):
            cats[at] = "strike_called_off"
        elif any(a <= d <= b for a, b in _WINTER_BREAKS for d in days):
            cats[at] = "winter_break"
        elif any(names):
            cats[at] = "holiday"
    shift = datetime(_HOT_TUBS.year, _HOT_TUBS.month, _HOT_TUBS.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 5, first=1)
    return Estate("pools_is_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Central Asian cement group's shipments (tonnes) per day by plant, on an ordinary summer working day
_CEMENT_DAILY = {"shymkent": 9_500.0, "karaganda": 7_000.0, "akhangaran": 6_000.0}
_CEMENT_COUNTRY = {"shymkent": "KZ", "karaganda": "KZ", "akhangaran": "UZ"}
_NORTH = {"karaganda"}  # the plant of the cold north (its sites shut by frost from November to March)
_CEMENT_SEASONS = {  # by month (read at mid-month): the construction season
    "north": [0.35, 0.35, 0.55, 0.9, 1.15, 1.25, 1.3, 1.3, 1.2, 1.0, 0.65, 0.4],
    "south": [0.6, 0.6, 0.8, 1.0, 1.1, 1.15, 1.15, 1.2, 1.15, 1.05, 0.9, 0.7],
}
_CEMENT_WEEK = [1.0, 1.0, 1.0, 1.0, 1.0, 0.85, 0.45]  # Monday first: a short Saturday, a Sunday of rail loading only
_MONTH_PUSH = (3, 1.35, 2, 0.85)  # the month's last 3 days x1.35 (the month's sales plan closed), its first 2 x0.85
_HARVEST_WAGONS = ((9, 1), (10, 20), 0.85)  # the grain harvest takes the railway's wagons: the north's shipments
_SECOND_KILN = date(2025, 4, 11)  # Akhangaran's second kiln line in service (a dekad's first day)
_WAYBILL_OUTAGE = date(2022, 11, 11)  # the dekad whose rail waybills never reached the ERP (loaded in part)


def _dekads(first: date, count: int) -> list[tuple[date, date]]:
    """`count` dekads from `first` (a 1st): the 1st-10th, the 11th-20th and the 21st to the month's end (8 to 11
    days), keyed on their first day, as a partition definition on the cron "0 0 1,11,21 * *" keys them."""
    out, d = [], first
    for _ in range(count):
        if d.day < 21:
            end = d + timedelta(days=9)
        else:
            end = date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)
        out.append((d, end))
        d = end + timedelta(days=1)
    return out


def _cement_day(d: date, plant: str, cal: HolidayCalendar) -> float:
    """A plant's shipments on `d` against an ordinary summer working day's: season, week, its own holidays, the
    month's push and the harvest's wagons."""
    f = _season_at(_CEMENT_SEASONS["north" if plant in _NORTH else "south"], d) * _CEMENT_WEEK[d.weekday()]
    if cal.name(d):
        f *= 0.25
    month_end = date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)
    if (month_end - d).days < _MONTH_PUSH[0]:
        f *= _MONTH_PUSH[1]
    elif d.day <= _MONTH_PUSH[2]:
        f *= _MONTH_PUSH[3]
    if plant in _NORTH and date(d.year, *_HARVEST_WAGONS[0]) <= d <= date(d.year, *_HARVEST_WAGONS[1]):
        f *= _HARVEST_WAGONS[2]
    return f


def cement_kz_uz_dekadal(seed: int) -> Estate:
    """Blind (twenty-third round): a Central Asian cement group's shipments (tonnes) per dekad by plant (three:
    Shymkent 9,500 an ordinary summer working day, Karaganda 7,000 and Akhangaran in Uzbekistan 6,000; in an order
    set by the seed). A dekad is
    the 1st-10th, the 11th-20th or the 21st to the month's end (8 to 11 days), keyed on its first day (the CIS
    statistics' ten-day period). Each plant on its own country's holidays (the `holidays` package's KZ, the
    estate's calendar, and UZ for Akhangaran, configured by the owner per plant: Nauryz, the New Year, Kurban Ait,
    Uzbekistan's Eid al-Fitr and Independence Day...; a holiday x0.25). A dekad is the sum of its days: the
    construction season (`_CEMENT_SEASONS`: Karaganda's frozen winter x0.35, the south's x0.6), the week
    (`_CEMENT_WEEK`: Sunday x0.45). In no calendar: the month's push, its last three days x1.35 (the sales plan
    closed, the railway's month-end loading) and its first two x0.85; the grain harvest's claim on the railway's
    wagons (1 September to 20 October, the northern plant x0.85). From the dekad of 11 April 2025 Akhangaran's
    second kiln line (+40% there, accepted by the owner as a shift). The rail waybills of the dekad of 11 November
    2022 never reached the ERP (every plant x0.45; unlabelled, history only). 4% noise per plant and dekad; +3% a
    year. From 1 January 2021 (180 dekads, to 31 December 2025): three years read (108 dekads), 2024 and 2025
    evaluated."""
    rng = random.Random(seed)
    cals = {c: HolidayCalendar(country=c) for c in ("KZ", "UZ")}
    plants = _unequal(rng, list(_CEMENT_DAILY))
    dekads = _dekads(date(2021, 1, 1), 180)
    series, cats, incidents = [], {}, set()
    for first, last in dekads:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        groups = []
        for p in plants:
            cal = cals[_CEMENT_COUNTRY[p]]
            tonnes = 0.0
            for d in days:
                f = _cement_day(d, p, cal) * 1.03 ** ((d - dekads[0][0]).days / 365.25)
                f *= 1.4 if p == "akhangaran" and d >= _SECOND_KILN else 1.0
                tonnes += _CEMENT_DAILY[p] * f
            tonnes *= 0.45 if first == _WAYBILL_OUTAGE else 1.0
            groups.append(_noisy(rng, tonnes, 0.04))
        series.append((at, groups))
        if first == _WAYBILL_OUTAGE:
            incidents.add(at)
        names = [cal.name(d) for cal in cals.values() for d in days]
        if (first.month, first.day) in ((12, 21), (1, 1)):
            cats[at] = "year_turn"
        elif any("Nowruz" in name for name in names):
            cats[at] = "nauryz"
        elif any("Eid al-Adha" in name for name in names):
            cats[at] = "kurban"
        elif first.day == 21:
            cats[at] = "last_dekad"
        elif date(first.year, *_HARVEST_WAGONS[0]) <= first <= date(first.year, *_HARVEST_WAGONS[1]):
            cats[at] = "harvest_wagons"
    shift = datetime(_SECOND_KILN.year, _SECOND_KILN.month, _SECOND_KILN.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 4]:  # the next month's dekads
        cats.setdefault(at, "after_shift")
    calendars: list[HolidayCalendar | None] = [None if _CEMENT_COUNTRY[p] == "KZ" else cals["UZ"] for p in plants]
    return Estate("cement_kz_uz_dekadal", "day", series, 108, cals["KZ"], cats, [shift], incidents=incidents,
                  group_calendars=calendars)


# a Tongan mobile operator's prepaid top-ups (airtime and data) per local hour by island group, against the busiest
# hour of an ordinary weekday: the evening's video calls to family abroad, a quiet night
_TOPUP_HOURS = [0.14, 0.08, 0.05, 0.04, 0.04, 0.07, 0.2, 0.42, 0.6, 0.62, 0.6, 0.6, 0.66, 0.62, 0.58, 0.6, 0.68, 0.78,
                0.9, 1.0, 0.98, 0.82, 0.55, 0.3]
# Sunday, the Sabbath the constitution keeps (shops shut, no sport, church morning and evening): top-ups by USSD only
_TOPUP_SUNDAY = [0.12, 0.07, 0.04, 0.03, 0.03, 0.04, 0.08, 0.12, 0.1, 0.06, 0.05, 0.08, 0.22, 0.3, 0.35, 0.35, 0.32,
                 0.3, 0.38, 0.62, 0.75, 0.7, 0.48, 0.25]
_TOPUP_SATURDAY = 1.15  # Saturday: the Talamahu market and the shops' long day, top-ups for the Sabbath
# an ordinary weekday's top-ups at its busiest hour, by island group: 'Eua some twenty-five times smaller than Tongatapu
_TOPUP_PEAK = {"tongatapu": 420.0, "vavau": 95.0, "haapai": 38.0, "eua": 16.0}
_NORTHERN = {"vavau", "haapai"}  # the island groups on the cyclone's track
# the government's fortnightly pay on Thursdays (in no calendar): top-ups from mid-morning, and the next day
_TONGA_PAYDAYS = [date(2025, 11, 6), date(2025, 11, 20), date(2025, 12, 4), date(2025, 12, 18)]
# a tropical cyclone's warning for Vava'u and Ha'apai issued on Monday 1 December 2025 at 16:00 (airtime and data
# bought before the power and the towers fail), its passage on Tuesday 2 December (in no calendar)
_CYCLONE_WARNING = datetime(2025, 12, 1, 16)
_CYCLONE_DAY = date(2025, 12, 2)
_DIASPORA_DECEMBER = 0.25  # December's top-ups sent from New Zealand, Australia and the US climb from the 1st (+25% by the 24th)
_DAILY_BUNDLES = datetime(2025, 12, 10, 0)  # local: the one-pa'anga daily data bundle launched (every island group)
_CABLE_FAULT = (datetime(2025, 11, 13, 6), datetime(2025, 11, 13, 17))  # local: the submarine cable's fault


def _topup_hour(local: datetime, group: str, cal: HolidayCalendar) -> float:
    """A group's top-ups in a local hour against an ordinary weekday's busiest hour: the Sabbath, Saturday, a
    holiday (like a Saturday, without the market), the payday, December's diaspora, the cyclone's warning and day."""
    d, h = local.date(), local.hour
    if d.weekday() == 6:
        f = _TOPUP_SUNDAY[h]
    else:
        f = _TOPUP_HOURS[h] * (_TOPUP_SATURDAY if d.weekday() == 5 or cal.name(d) else 1.0)
        if cal.name(d):
            f *= 0.8 if h < 12 else 1.05  # a late morning, a family afternoon
    if d in _TONGA_PAYDAYS and h >= 10:
        f *= 1.3
    elif d - timedelta(days=1) in _TONGA_PAYDAYS:
        f *= 1.1
    if d.month == 12:
        f *= 1 + _DIASPORA_DECEMBER * min(d.day, 24) / 24
    if group in _NORTHERN:
        if _CYCLONE_WARNING <= local < datetime(_CYCLONE_DAY.year, _CYCLONE_DAY.month, _CYCLONE_DAY.day):
            f *= 1.8
        elif d == _CYCLONE_DAY:
            f *= 0.35  # power cut, towers on batteries, families sheltering
    elif d == _CYCLONE_DAY:
        f *= 0.9  # Tongatapu's rain bands
    return f


def topups_tonga_hourly(seed: int) -> Estate:
    """Blind (twenty-fourth round): a Tongan mobile operator's prepaid top-ups (airtime and data, by app, USSD and
    the shops' vouchers) per local hour by island group (four: Tongatapu 420 at an ordinary weekday's busiest hour,
    Vava'u 95, Ha'apai 38 and 'Eua 16, some twenty-five times smaller than Tongatapu; in an order set by the seed),
    in Pacific/Tongatapu, thirteen hours ahead of UTC beside the date line (no daylight saving since 2017: every point
    on the hour UTC, a local day from 11:00 UTC the day before), on Tonga's holidays (the `holidays` package's TO:
    Constitution Day observed on Monday 3 November in the history, King George Tupou I's Day observed on Monday 8
    December inside the evaluated fortnight: like a Saturday, x0.8 to 11:59 and x1.05 after). Every hour is a
    partition (top-ups never stop). The weekday's evening peak (`_TOPUP_HOURS`), the Sabbath (`_TOPUP_SUNDAY`:
    shops shut, church in the morning and evening), Saturday x1.15. In no calendar: the government's fortnightly pay
    on Thursdays (6 and 20 November, 4 December: x1.3 from 10:00, the Friday x1.1); December's top-ups sent by
    relatives abroad climbing from the 1st (+25% by the 24th); a tropical cyclone's warning for Vava'u and Ha'apai
    from Monday 1 December 16:00 (x1.8 there to midnight: airtime and data bought before the towers fail) and its
    passage on Tuesday 2 December (x0.35 there all day, Tongatapu x0.9). From Wednesday 10 December 00:00 the
    one-pa'anga daily data bundle (x1.2 everywhere, accepted by the owner as a shift). The submarine cable failed on
    Thursday 13 November 06:00-17:59 (x0.15: app and card top-ups down, USSD airtime only; unlabelled, history only).
    Poisson counts with 5% extra noise per hour and group. From Saturday 1 November 2025: four weeks read, Saturday
    29 November to Friday 12 December evaluated."""
    rng = random.Random(seed)
    zone = "Pacific/Tongatapu"
    cal = HolidayCalendar(country="TO")
    tz = ZoneInfo(zone)
    groups_ = _unequal(rng, list(_TOPUP_PEAK))
    start, first, last = date(2025, 11, 1), date(2025, 11, 29), date(2025, 12, 12)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            outage = _CABLE_FAULT[0] <= local <= _CABLE_FAULT[1]
            bundles = 1.2 if local >= _DAILY_BUNDLES else 1.0
            values = []
            for g in groups_:
                f = _topup_hour(local, g, cal) * bundles * (0.15 if outage else 1.0)
                values.append(_poisson(rng, _TOPUP_PEAK[g] * f * math.exp(rng.gauss(0, 0.05))))
            at = _utc_hour(local, tz)
            series.append((at, values))
            if outage:
                incidents.add(at)
            if cal.name(d):
                cats[at] = "holiday"
            elif _CYCLONE_WARNING <= local < datetime(_CYCLONE_DAY.year, _CYCLONE_DAY.month, _CYCLONE_DAY.day):
                cats[at] = "cyclone_warning"
            elif d == _CYCLONE_DAY:
                cats[at] = "cyclone"
            elif d in _TONGA_PAYDAYS and h >= 10:
                cats[at] = "payday"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_DAILY_BUNDLES, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 24 * 3]:  # the next three days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("topups_tonga_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Nigerian fintech's POS card and transfer transactions at its agents per day by state, an ordinary Monday's: Ondo
# some twenty-eight times smaller than Lagos
_POS_DAILY = {"lagos": 62_000.0, "fct": 24_000.0, "rivers": 15_000.0, "kano": 11_000.0, "oyo": 9_000.0,
              "anambra": 7_500.0, "enugu": 5_500.0, "edo": 5_000.0, "kaduna": 4_000.0, "ondo": 2_200.0}
_POS_WEEK = [1.0, 0.97, 0.97, 1.0, 1.12, 1.15, 0.55]  # Monday first: Friday's and Saturday's markets, Sunday's church
_POS_NORTH = {"kano", "kaduna"}  # the Muslim north: Eid's days quieter, Christmas barely felt
_POS_EAST = {"anambra", "enugu"}  # the south-east: its traders go home for Christmas from the cities
# off-cycle governorship elections (in no calendar): movement restricted in the state from 08:00 to 18:00 on the
# Saturday, cash drawn at the agents on the Friday
_POS_ELECTIONS = {date(2024, 9, 21): "edo", date(2024, 11, 16): "ondo", date(2025, 11, 8): "anambra"}
_ENUGU_OPENS = (date(2024, 6, 3), date(2024, 12, 31), 0.15)  # agents signed in Enugu from a Monday: zero before
_KANO_SOLD = date(2025, 9, 1)  # Kano's agent network sold to a partner bank (a Monday): no rows there after it
_SWITCH_DOWN = date(2024, 6, 4)  # the interbank switch down most of a Tuesday (transactions failed, few recorded)


def _pos_day(d: date, state: str, cal: HolidayCalendar) -> float:
    """A state's transactions on `d` against an ordinary Monday's: the week, a holiday, salaries at the month's
    turn, the Christmas homecoming and an election's restriction."""
    f = _POS_WEEK[d.weekday()]
    name = cal.name(d)
    if name:
        if "Christmas" in name:
            f *= 0.45 if state not in _POS_NORTH else 0.8
        elif "Eid" in name:
            f *= 0.45 if state in _POS_NORTH else 0.75
        else:
            f *= 0.65
    month_end = date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)
    if (month_end - d).days < 3 or d.day <= 2:
        f *= 1.15  # salaries paid in the month's last days
    christmas = (d.month == 12 and d.day >= 20) or (d.month == 1 and d.day <= 3)
    if christmas and state in _POS_EAST:
        f *= 1.5  # the traders home from Lagos and Abuja, the villages' weddings and burials
    elif christmas and state not in _POS_NORTH:
        f *= 1.1 if state != "lagos" else 0.95
    if (d.month, d.day) == (12, 24):
        f *= 1.3
    for day, where in _POS_ELECTIONS.items():
        if state == where:
            f *= 0.15 if d == day else 1.25 if d == day - timedelta(days=1) else 1.0
    return f


def pos_ng(seed: int) -> Estate:
    """Blind (twenty-fourth round): a Nigerian fintech's POS card and transfer transactions at its agents per day by
    state (ten: Lagos 62,000 an ordinary Monday, the FCT 24,000, Rivers 15,000, Kano 11,000, Oyo 9,000, Anambra
    7,500, Enugu 5,500, Edo 5,000, Kaduna 4,000 and Ondo 2,200, some twenty-eight times smaller than Lagos; in an
    order set by the seed), on Nigeria's holidays (the `holidays` package's NG: Eid's days, Easter, Democracy Day,
    Christmas...; a holiday x0.65, Christmas Day x0.45 but in the north x0.8, Eid x0.45 in the north and x0.75
    elsewhere). Every day (agents open all week): the week (`_POS_WEEK`: Saturday x1.15, Sunday x0.55). In no
    calendar: salaries at the month's turn (its last three and the next month's first two days x1.15); the Christmas
    homecoming (20 December to 3 January: the south-east x1.5, the other southern states x1.1, Lagos x0.95 as its
    traders leave), Christmas Eve x1.3; off-cycle governorship elections (Edo Saturday 21 September 2024, Ondo
    Saturday 16 November 2024, Anambra Saturday 8 November 2025: movement restricted, x0.15 in that state, its Friday
    x1.25). Enugu's agents signed from Monday 3 June 2024 (no rows before: zero), at 15% of their level, filling to
    all of it by 31 December. From Monday 1 September 2025 Kano's agent network belongs to a partner bank: no rows
    there for good (accepted by the owner as a shift). The interbank switch failed most of Tuesday 4 June 2024
    (x0.3 everywhere; unlabelled, history only). Poisson counts with 4% extra noise per state; +12% a year (new
    agents). From Monday 1 January 2024 (760 days, to 29 January 2026): from Tuesday 4 February 2025 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NG")
    states = _unequal(rng, list(_POS_DAILY))
    start, n = date(2024, 1, 1), 760
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        values = []
        for s in states:
            f = _pos_day(d, s, cal) * 1.12 ** (i / 365.25) * (0.3 if d == _SWITCH_DOWN else 1.0)
            if s == "enugu":
                f *= 0.0 if d < _ENUGU_OPENS[0] else _ramp(d, *_ENUGU_OPENS)
            if s == "kano" and d >= _KANO_SOLD:
                f = 0.0
            values.append(_poisson(rng, _POS_DAILY[s] * f * math.exp(rng.gauss(0, 0.04))))
        series.append((at, values))
        if d == _SWITCH_DOWN:
            incidents.add(at)
        if any(d in (day, day - timedelta(days=1)) for day in _POS_ELECTIONS):
            cats[at] = "election"
        elif (d.month == 12 and d.day >= 20) or (d.month == 1 and d.day <= 3):
            cats[at] = "christmas"
        elif cal.name(d) or cal.name(d - timedelta(days=1)):
            cats[at] = "holiday"
        elif d.day <= 2 or (d + timedelta(days=3)).month != d.month:
            cats[at] = "salary_days"
    shift = datetime(_KANO_SOLD.year, _KANO_SOLD.month, _KANO_SOLD.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("pos_ng", "day", series, 400, cal, cats, [shift], incidents=incidents)


# an Ethiopian brewery's beer deliveries (crates) per day by region, on an ordinary Monday outside the fasts: Dire
# Dawa some twenty-five times smaller than Addis Ababa
_BEER_DAILY = {"addis_ababa": 30_000.0, "amhara": 21_000.0, "dire_dawa": 1_200.0}
_BEER_WEEK = [1.0, 0.95, 0.95, 1.1, 1.25, 0.75, 0.0]  # Monday first: bars stocked for the weekend, no Sunday runs
# the Orthodox fasts' pull on beer, by region (the Lenten fast of 55 days before Fasika, the Advent fast of Tsome
# Nebiyat from 25 November to Genna): Amhara keeps them most
_LENT = {"addis_ababa": 0.8, "amhara": 0.65, "dire_dawa": 0.92}
_ADVENT = {"addis_ababa": 0.9, "amhara": 0.8, "dire_dawa": 0.97}
_FEAST_RUN_UP = 5  # days before a holiday that bars and hotels stock for the feast (x1.4)
_KIREMT = ((6, 15), (9, 5), 0.85)  # the long rains: roads and the rural bars' trade (in no calendar)
_EXCISE_RISE = date(2025, 1, 9)  # Tir 1, 2017 EC: the excise on beer raised (prices up by a fifth)
_ERP_MONTH = date(2021, 11, 10)  # Hidar 2014 EC: the ERP migration's month, deliveries loaded in part


def _ethiopian_new_year(year: int) -> date:
    """Enkutatash, Meskerem 1, in Gregorian `year`: 12 September before a Gregorian leap year (the Ethiopian year
    just ended had a sixth Pagume day), 11 September otherwise (1900-2099)."""
    return date(year, 9, 12 if (year + 1) % 4 == 0 else 11)


def _ethiopian_months(first_year: int, years: int) -> list[tuple[date, date]]:
    """The Ethiopian calendar's months from Meskerem 1 of the Ethiopian year starting in Gregorian `first_year`:
    twelve of thirty days, then Pagume's five (six before a leap year), each as its (first day, last day)."""
    out = []
    for y in range(first_year, first_year + years):
        new_year = _ethiopian_new_year(y)
        for m in range(12):
            out.append((new_year + timedelta(days=30 * m), new_year + timedelta(days=30 * m + 29)))
        out.append((new_year + timedelta(days=360), _ethiopian_new_year(y + 1) - timedelta(days=1)))
    return out


def _orthodox_easter(year: int) -> date:
    """Fasika: the Julian calendar's Easter (Meeus), in the Gregorian calendar (1900-2099: 13 days on)."""
    a, b, c = year % 4, year % 7, year % 19
    d = (19 * c + 15) % 30
    e = (2 * a + 4 * b - d + 34) % 7
    month, day = divmod(d + e + 114, 31)
    return date(year, month, day + 1) + timedelta(days=13)


def _beer_day(d: date, region: str, cal: HolidayCalendar, ramadan: set[date]) -> float:
    """A region's deliveries on `d` against an ordinary Monday's: the week, a holiday (depots shut) and its run-up,
    the fasts, Ramadan in Dire Dawa, the long rains."""
    f = _BEER_WEEK[d.weekday()]
    if cal.name(d):
        return f * 0.2
    if any(cal.name(d + timedelta(days=k)) for k in range(1, _FEAST_RUN_UP + 1)):
        f *= 1.4
    easter = _orthodox_easter(d.year)
    if easter - timedelta(days=55) <= d < easter:
        f *= _LENT[region]
    if (d.month, d.day) >= (11, 25) or (d.month, d.day) < (1, 7):
        f *= _ADVENT[region]
    if region == "dire_dawa" and d in ramadan:
        f *= 0.75
    if date(d.year, *_KIREMT[0]) <= d <= date(d.year, *_KIREMT[1]):
        f *= _KIREMT[2]
    return f


def beer_et_monthly(seed: int) -> Estate:
    """Blind (twenty-fourth round): an Ethiopian brewery's beer deliveries (crates) per month of the Ethiopian
    calendar by region (three: Addis Ababa 30,000 an ordinary Monday, Amhara 21,000 and Dire Dawa 1,200, some
    twenty-five times smaller than Addis Ababa; in an order set by the seed). The Ethiopian year has thirteen
    months: twelve of thirty days from Meskerem 1 (Enkutatash, 11 September, 12 September before a Gregorian leap
    year), then Pagume of five days (six before a leap year); each a partition keyed on its first day (Gregorian):
    thirteen a year, the thirteenth a sixth of the others' length. On Ethiopia's holidays (the `holidays` package's
    ET: Genna on 7 January, Timkat on 19 January, Adwa, Fasika and the Good Friday before it, Eid al-Fitr and
    al-Adha, the Prophet's Birthday, Enkutatash, Meskel on 27 September...): depots shut (x0.2), the five days
    before a feast x1.4 (Pagume, before Enkutatash, is all run-up). A month is the sum of its days: the week
    (`_BEER_WEEK`: Friday x1.25, no Sunday runs). In no calendar: the Lenten fast of 55 days before Fasika (Amhara
    x0.65, Addis Ababa x0.8, Dire Dawa x0.92) and the Advent fast from 25 November to Genna (x0.8, x0.9, x0.97);
    Ramadan in Dire Dawa (x0.75); the long rains (kiremt, 15 June to 5 September, x0.85). From Tir 1, 2017 (9
    January 2025) the excise on beer raised (x0.88 everywhere, accepted by the owner as a shift). The ERP migration's
    month, Hidar 2014 (10 November to 9 December 2021), was loaded in part (x0.5; unlabelled, history only). 3%
    noise per region and month; +6% a year. From Meskerem 1, 2013 (11 September 2020; 78 months to Pagume 2018,
    September 2026): three Ethiopian years read, from Meskerem 2016 (12 September 2023) evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ET")
    regions = _unequal(rng, list(_BEER_DAILY))
    months = _ethiopian_months(2020, 6)
    all_days = [months[0][0] + timedelta(days=k) for k in range((months[-1][1] - months[0][0]).days + 1)]
    ramadan = {e - timedelta(days=k) for e in _first_days(cal, all_days, "Eid al-Fitr") for k in range(1, 31)}
    series, cats, incidents = [], {}, set()
    for first, last in months:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        values = []
        for r in regions:
            crates = sum(_beer_day(d, r, cal, ramadan) * 1.06 ** ((d - months[0][0]).days / 365.25) for d in days)
            crates *= (0.88 if first >= _EXCISE_RISE else 1.0) * (0.5 if first == _ERP_MONTH else 1.0)
            values.append(_noisy(rng, _BEER_DAILY[r] * crates, 0.03))
        series.append((at, values))
        if first == _ERP_MONTH:
            incidents.add(at)
        easter = _orthodox_easter(first.year)
        lent = sum(easter - timedelta(days=55) <= d < easter for d in days)
        if len(days) < 30:
            cats[at] = "pagume"
        elif first == _ethiopian_new_year(first.year):
            cats[at] = "enkutatash"  # the new year's month, with Meskel
        elif first <= easter <= last:
            cats[at] = "fasika"
        elif lent >= 15:
            cats[at] = "lent"
        elif any((d.month, d.day) in ((1, 7), (1, 19)) for d in days):
            cats[at] = "genna_timkat"
        elif any(date(d.year, *_KIREMT[0]) <= d <= date(d.year, *_KIREMT[1]) for d in days[10:20]):
            cats[at] = "kiremt"
    shift = datetime(_EXCISE_RISE.year, _EXCISE_RISE.month, _EXCISE_RISE.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 3]:  # the next two months
        cats.setdefault(at, "after_shift")
    return Estate("beer_et_monthly", "day", series, 39, cal, cats, [shift], incidents=incidents)


# a Fijian resort group's guest nights per quarter by island group, in an ordinary quarter: Taveuni's dive resorts
# some twenty-six times smaller than Viti Levu's (Denarau and the Coral Coast)
_NIGHTS_QUARTER = {"viti_levu": 210_000.0, "taveuni": 8_000.0}
# by quarter: the wet cyclone season (January's Australian and New Zealand summer holidays aside), the winter school
# holidays of July, Christmas
_NIGHTS_SEASON = {"viti_levu": [0.86, 0.95, 1.18, 1.04], "taveuni": [0.72, 1.0, 1.22, 1.08]}
_EASTER_LIFT = 0.05  # Australia's and New Zealand's Easter holidays: +5% to the quarter holding Easter Sunday
# cyclones (in no calendar), by the quarter's first day: Winston (February 2016), Rae (February 2025)
_CYCLONES = {date(2016, 1, 1): {"viti_levu": 0.85, "taveuni": 0.4}, date(2025, 1, 1): {"viti_levu": 0.98,
                                                                                      "taveuni": 0.85}}
# the borders shut to tourists from March 2020 to 30 November 2021 (local staycations only), by quarter: incidents
# left in the history (never evaluated; nothing marks them to the check)
_BORDERS_SHUT = {date(2020, 1, 1): 0.75, date(2020, 4, 1): 0.06, date(2020, 7, 1): 0.1, date(2020, 10, 1): 0.1,
                 date(2021, 1, 1): 0.05, date(2021, 4, 1): 0.04, date(2021, 7, 1): 0.04, date(2021, 10, 1): 0.08}
_REOPENING = {date(2022, 1, 1): 0.45, date(2022, 4, 1): 0.75, date(2022, 7, 1): 0.92}  # the return (clean history)
_NEW_RESORT = date(2025, 7, 1)  # a 300-room Denarau resort joins the group (Viti Levu +15%)


def nights_fj_quarterly(seed: int) -> Estate:
    """Blind (twenty-fourth round): a Fijian resort group's guest nights per calendar quarter by island group (two:
    Viti Levu's resorts 210,000 nights in an ordinary quarter and Taveuni's dive resorts 8,000, some twenty-six
    times smaller; in an order set by the seed), each quarter keyed on its first day (1 January, 1 April, 1 July, 1
    October), on Fiji's holidays (the `holidays` package's FJ; a quarter's nights barely move with them). The season
    by quarter (`_NIGHTS_SEASON`: the wet first quarter x0.86 and Taveuni's x0.72, the third's Australian and New
    Zealand winter holidays x1.18-1.22); the quarter holding Easter Sunday +5% (the first in 2016 and 2024, the second
    otherwise). In no calendar: cyclones (Winston in the first quarter of 2016: Viti Levu x0.85, Taveuni x0.4;
    Rae in the first quarter of 2025: x0.98 and x0.85). The borders shut to tourists from March 2020 to 30 November
    2021: the quarters from the first of 2020 to the last of 2021 were a lockdown-like closure (x0.75, then x0.04 to
    x0.1), left in the history as incidents (never evaluated, unlabelled to the check); the reopening's quarters of
    2022 climb back (x0.45, x0.75, x0.92; clean history). From the third quarter of 2025 a 300-room Denarau resort joins the group
    (Viti Levu x1.15, accepted by the owner as a shift). 3% noise per island group and quarter; +4% a year. From the
    first quarter of 2016 (44 quarters, to the last of 2026): eight years read, 2024 to 2026 evaluated (12
    quarters)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="FJ")
    islands = _unequal(rng, list(_NIGHTS_QUARTER))
    series, cats, incidents = [], {}, set()
    for q in range(44):
        first = date(2016 + q // 4, 3 * (q % 4) + 1, 1)
        at = datetime(first.year, first.month, first.day)
        last = date(first.year + (first.month == 10), (first.month + 2) % 12 + 1, 1) - timedelta(days=1)
        easter = first <= _easter(first.year) <= last
        values = []
        for i in islands:
            f = _NIGHTS_SEASON[i][q % 4] * (1 + _EASTER_LIFT * easter) * 1.04 ** (q / 4)
            f *= _CYCLONES.get(first, {}).get(i, 1.0) * _BORDERS_SHUT.get(first, 1.0) * _REOPENING.get(first, 1.0)
            f *= 1.15 if i == "viti_levu" and first >= _NEW_RESORT else 1.0
            values.append(_noisy(rng, _NIGHTS_QUARTER[i] * f, 0.03))
        series.append((at, values))
        if first in _BORDERS_SHUT:
            incidents.add(at)
        if first in _CYCLONES:
            cats[at] = "cyclone"
        elif easter:
            cats[at] = "easter"
    shift = datetime(_NEW_RESORT.year, _NEW_RESORT.month, _NEW_RESORT.day)
    stamps = [at for at, _ in series]
    cats.setdefault(stamps[stamps.index(shift) + 1], "after_shift")  # the next quarter
    return Estate("nights_fj_quarterly", "day", series, 32, cal, cats, [shift], incidents=incidents)


# a Jordanian ride-hailing app's trips per local hour by city, against an ordinary working day's busiest hour (Sunday
# to Thursday: the morning and the afternoon commute); Aqaba some twenty-seven times smaller than Amman
_RIDE_WORKDAY = [0.18, 0.12, 0.08, 0.06, 0.05, 0.08, 0.25, 0.65, 0.95, 0.75, 0.6, 0.6, 0.62, 0.65, 0.85, 1.0, 0.95,
                 0.85, 0.8, 0.78, 0.72, 0.6, 0.45, 0.3]
# Friday (the weekend's first day: the midday prayer, families out in the evening) and Saturday
_RIDE_FRIDAY = [0.25, 0.18, 0.12, 0.08, 0.05, 0.04, 0.05, 0.08, 0.12, 0.18, 0.25, 0.2, 0.1, 0.35, 0.5, 0.6, 0.65,
                0.7, 0.8, 0.85, 0.85, 0.75, 0.6, 0.4]
_RIDE_SATURDAY = [0.28, 0.2, 0.12, 0.08, 0.05, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.62, 0.65, 0.68, 0.7, 0.72,
                  0.78, 0.8, 0.8, 0.7, 0.55, 0.38]
# Ramadan's days (shorter office hours, the rush home before the sunset, iftar at home, the nights out after the
# taraweeh prayers to the small hours): a working day, and a Friday or a Saturday
_RIDE_RAMADAN = [0.8, 0.55, 0.35, 0.15, 0.05, 0.03, 0.04, 0.15, 0.55, 0.75, 0.65, 0.6, 0.62, 0.75, 0.95, 1.05, 1.1,
                 0.45, 0.08, 0.3, 0.8, 1.05, 1.15, 1.0]
_RIDE_RAMADAN_WEEKEND = [0.85, 0.6, 0.4, 0.18, 0.05, 0.02, 0.02, 0.03, 0.05, 0.08, 0.12, 0.15, 0.12, 0.35, 0.55, 0.7,
                         0.8, 0.4, 0.07, 0.3, 0.85, 1.1, 1.2, 1.05]
_RIDE_PEAK = {"amman": 2_400.0, "aqaba": 90.0}  # an ordinary working day's busiest hour's trips
_AQABA_WEEKEND = 1.3  # Aqaba's Fridays and Saturdays: Ammanis drive down to the Red Sea's winter sun
_RAMADAN_1447 = date(2026, 2, 18)  # the first fast of Ramadan 1447 (iftar near 17:45 in Amman in February)
_AMMAN_DERBY = date(2026, 2, 13)  # Al-Faisaly against Al-Wehdat, kick-off 18:00 on a Friday (in no calendar)
_AMMAN_SNOW = date(2026, 2, 15)  # a snowstorm closes Amman's roads until the afternoon (in no calendar)
_CAPTAINS_LICENSED = datetime(2026, 2, 16, 0)  # local: the regulator licenses the captains' private cars
_DISPATCH_OUTAGE = (datetime(2026, 1, 26, 19), datetime(2026, 1, 26, 21))  # local: the dispatch service down


def _ride_hour(local: datetime, city: str) -> float:
    """A city's trips in a local hour against an ordinary working day's busiest hour: the weekend (Friday and
    Saturday), Ramadan's days and nights, the night before the first fast, the derby, the snowstorm and its eve."""
    d, h = local.date(), local.hour
    weekend = d.weekday() in (4, 5)
    if d >= _RAMADAN_1447:
        f = (_RIDE_RAMADAN_WEEKEND if weekend else _RIDE_RAMADAN)[h]
    else:
        f = (_RIDE_FRIDAY if d.weekday() == 4 else _RIDE_SATURDAY if d.weekday() == 5 else _RIDE_WORKDAY)[h]
    if city == "aqaba" and weekend:
        f *= _AQABA_WEEKEND
    if d == _RAMADAN_1447 - timedelta(days=1) and h >= 17:
        f *= 1.3  # the night before the first fast: the supermarkets and the sweet shops
    if city == "amman":
        if d == _AMMAN_DERBY and h in (18, 19):
            f *= 0.7
        elif d == _AMMAN_DERBY and h in (20, 21):
            f *= 1.35  # the fans home from the stadium and the cafés
        if d == _AMMAN_SNOW:
            f *= 0.15 if h < 14 else 0.55
        elif d == _AMMAN_SNOW - timedelta(days=1) and h >= 16:
            f *= 1.25  # bread, gas cylinders and groceries before the storm
    return f


def rides_amman_hourly(seed: int) -> Estate:
    """Blind (twenty-fifth round): a Jordanian ride-hailing app's trips per local hour by city (two: Amman 2,400 at
    an ordinary working day's busiest hour and Aqaba 90, some twenty-seven times smaller; in an order set by the
    seed), in Asia/Amman, three hours ahead of UTC all year (Jordan left daylight saving in 2022: every point on the
    hour UTC, a local day from 21:00 UTC the day before), on Jordan's holidays (the `holidays` package's JO: Isra'
    and Mi'raj on Friday 16 January in the history). Every hour is a partition. A working week from Sunday to
    Thursday (`_RIDE_WORKDAY`: the morning and afternoon commutes), the Friday and Saturday weekend (`_RIDE_FRIDAY`,
    `_RIDE_SATURDAY`: the midday prayer, evenings out; Aqaba's weekends x1.3). Ramadan 1447 begins inside the
    evaluated fortnight (first fast Wednesday 18 February: the calendar holds its Eid al-Fitr, not its days): its
    days read `_RIDE_RAMADAN` (the rush home before the sunset, iftar's dead hour x0.08, the nights out to 01:00
    after the taraweeh prayers), its weekends `_RIDE_RAMADAN_WEEKEND`; the night before the first fast x1.3 from
    17:00. In no calendar: the Amman derby on Friday 13 February (Amman x0.7 at 18:00-19:59 during the match,
    x1.35 at 20:00-21:59 after it); a snowstorm on Sunday 15 February closing Amman's roads (Amman x0.15 to 13:59,
    x0.55 after; Aqaba unmoved) and its eve (Saturday from 16:00, Amman x1.25). From Monday 16 February 00:00 the
    regulator licenses the captains' private cars (x1.15 everywhere, accepted by the owner as a shift). The dispatch
    service failed on Monday 26 January 19:00-21:59 (x0.2; unlabelled, history only). Poisson counts with 4% extra
    noise per hour and city. From Thursday 15 January 2026: four weeks read, Thursday 12 to Wednesday 25 February
    evaluated."""
    rng = random.Random(seed)
    zone = "Asia/Amman"
    cal = HolidayCalendar(country="JO")
    tz = ZoneInfo(zone)
    cities = _unequal(rng, list(_RIDE_PEAK))
    start, first, last = date(2026, 1, 15), date(2026, 2, 12), date(2026, 2, 25)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            outage = _DISPATCH_OUTAGE[0] <= local <= _DISPATCH_OUTAGE[1]
            licensed = 1.15 if local >= _CAPTAINS_LICENSED else 1.0
            values = []
            for c in cities:
                f = _ride_hour(local, c) * licensed * (0.2 if outage else 1.0)
                values.append(_poisson(rng, _RIDE_PEAK[c] * f * math.exp(rng.gauss(0, 0.04))))
            at = _utc_hour(local, tz)
            series.append((at, values))
            if outage:
                incidents.add(at)
            if cal.name(d):
                cats[at] = "holiday"
            elif d == _AMMAN_SNOW:
                cats[at] = "snow"
            elif d == _AMMAN_SNOW - timedelta(days=1) and h >= 16:
                cats[at] = "snow_eve"
            elif d == _AMMAN_DERBY and 18 <= h <= 21:
                cats[at] = "derby"
            elif d == _RAMADAN_1447 - timedelta(days=1) and h >= 17:
                cats[at] = "ramadan_eve"
            elif d >= _RAMADAN_1447 and 17 <= h <= 19:
                cats[at] = "iftar"
            elif d >= _RAMADAN_1447:
                cats[at] = "ramadan"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_CAPTAINS_LICENSED, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 24 * 2]:  # the next two days' hours
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("rides_amman_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Bulgarian online florist's bouquets ordered per day by delivery city, on an ordinary Wednesday: Blagoevgrad some
# twenty-five times smaller than Sofia
_FLOWER_DAILY = {"sofia": 1_400.0, "plovdiv": 520.0, "varna": 430.0, "burgas": 330.0, "ruse": 200.0,
                 "stara_zagora": 170.0, "pleven": 120.0, "veliko_tarnovo": 100.0, "blagoevgrad": 55.0}
_FLOWER_WEEK = [0.9, 0.92, 1.0, 1.02, 1.2, 1.12, 0.78]  # Monday first: Friday's and Saturday's gifts
_FLOWER_MONTHS = [0.9, 1.0, 1.05, 1.0, 1.08, 1.02, 0.92, 0.88, 1.0, 0.98, 0.95, 1.1]  # weddings, graduations, December
_SEASIDE = {"varna", "burgas"}  # the Black Sea's summer (hotels, weddings on the coast): x1.3 in July and August
# the great name days (in no calendar): everyone named for the saint receives flowers (Ivan the most common name)
_NAME_DAYS = {(1, 6): 1.4, (1, 7): 2.2, (6, 29): 1.5, (10, 26): 1.7, (12, 6): 1.6}
_FLOWER_FEASTS = {(2, 13): 1.6, (2, 14): 4.0, (3, 7): 2.2, (3, 8): 6.0}  # Valentine's and Women's Day (8 March)
_PALM_SUNDAY = 2.5  # Tsvetnitsa, the Sunday before Orthodox Easter: the name day of everyone named for a flower
_SCHOOL_START = 3.5  # the school year's first day (15 September, or the Monday after): a bouquet for the teacher
_DELIVERY_APP = date(2025, 10, 13)  # the shops listed on a food-delivery app (a Monday)
_PAYMENTS_DOWN = date(2024, 6, 12)  # the card payment provider down most of a Wednesday (orders lost)


def _school_start(year: int) -> date:
    """The first working day on or after 15 September (a weekend's 15th opens the year on the Monday)."""
    d = date(year, 9, 15)
    return d + timedelta(days=(7 - d.weekday()) % 7 if d.weekday() >= 5 else 0)


def _flower_day(d: date, city: str, cal: HolidayCalendar) -> float:
    """A city's bouquets on `d` against an ordinary Wednesday's: the week, the month, the seaside's summer, the
    holidays (St George's Day and the Alphabet Day lifted, Christmas Day and New Year's Day shut), the name days,
    Valentine's and Women's Day, Palm Sunday and the school year's first day."""
    f = _FLOWER_WEEK[d.weekday()] * _FLOWER_MONTHS[d.month - 1]
    if d.month in (7, 8):
        f *= 1.3 if city in _SEASIDE else 0.85 if city == "sofia" else 1.0
    name = cal.name(d) or ""
    if "George" in name:
        f *= 2.0  # a holiday and Georgi's name day
    elif name == "Day of Slavonic Alphabet, Bulgarian Enlightenment and Culture":
        f *= 1.6  # pupils carry flowers to their teachers
    elif name == "Christmas Eve":
        f *= 1.2
    elif name in ("Christmas Day", "New Year's Day"):
        f *= 0.3
    elif name:
        f *= 0.7
    f *= _NAME_DAYS.get((d.month, d.day), 1.0) * _FLOWER_FEASTS.get((d.month, d.day), 1.0)
    if d == _orthodox_easter(d.year) - timedelta(days=7):
        f *= _PALM_SUNDAY
    if d == _school_start(d.year):
        f *= _SCHOOL_START
    return f


def flowers_bg(seed: int) -> Estate:
    """Blind (twenty-fifth round): a Bulgarian online florist's bouquets ordered per day by delivery city (nine:
    Sofia 1,400 an ordinary Wednesday, Plovdiv 520, Varna 430, Burgas 330, Ruse 200, Stara Zagora 170, Pleven 120,
    Veliko Tarnovo 100 and Blagoevgrad 55, some twenty-five times smaller than Sofia; in an order set by the seed),
    on Bulgaria's holidays (the `holidays` package's BG: Orthodox Easter, Liberation Day, St George's Day x2.0 as it
    is Georgi's name day too, the Alphabet Day of 24 May x1.6 as pupils bring their teachers flowers, Christmas Eve
    x1.2, Christmas Day and New Year's Day x0.3, other holidays x0.7). Every day: the week (`_FLOWER_WEEK`: Friday
    x1.2, Sunday x0.78) and the month (`_FLOWER_MONTHS`); in July and August Varna and Burgas x1.3, Sofia x0.85. In
    no calendar: the name days (Yordanovden 6 January x1.4, Ivanovden 7 January x2.2, Petrovden 29 June x1.5,
    Dimitrovden 26 October x1.7, Nikulden 6 December x1.6); Valentine's Day (14 February x4.0, the 13th x1.6);
    International Women's Day (8 March x6.0, a working day, a Sunday in 2026; the 7th x2.2); Tsvetnitsa, Palm Sunday
    a week before Orthodox Easter (x2.5); the school year's first day (15 September, or the Monday after a weekend's
    15th: x3.5). From Monday 13 October 2025 the shops are listed on a food-delivery app (x1.18 everywhere, accepted
    by the owner as a shift). The card payment provider failed most of Wednesday 12 June 2024 (x0.35; unlabelled,
    history only). Poisson counts with 5% extra noise per city; +8% a year. From Monday 1 January 2024 (821 days, to
    31 March 2026): from Saturday 1 February 2025 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BG")
    cities = _unequal(rng, list(_FLOWER_DAILY))
    start, n = date(2024, 1, 1), 821
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (1.18 if d >= _DELIVERY_APP else 1.0) * (0.35 if d == _PAYMENTS_DOWN else 1.0) * 1.08 ** (i / 365.25)
        values = [_poisson(rng, _FLOWER_DAILY[c] * _flower_day(d, c, cal) * lift * math.exp(rng.gauss(0, 0.05)))
                  for c in cities]
        series.append((at, values))
        if d == _PAYMENTS_DOWN:
            incidents.add(at)
        name = cal.name(d) or ""
        if (d.month, d.day) in ((3, 7), (3, 8)):
            cats[at] = "womens_day"
        elif (d.month, d.day) in ((2, 13), (2, 14)):
            cats[at] = "valentines"
        elif d == _orthodox_easter(d.year) - timedelta(days=7):
            cats[at] = "palm_sunday"
        elif d == _school_start(d.year):
            cats[at] = "school_start"
        elif (d.month, d.day) in _NAME_DAYS or "George" in name:
            cats[at] = "name_day"
        elif name == "Day of Slavonic Alphabet, Bulgarian Enlightenment and Culture":
            cats[at] = "alphabet_day"
        elif (d.month == 12 and d.day >= 24) or (d.month == 1 and d.day <= 2):
            cats[at] = "christmas"
        elif name:
            cats[at] = "holiday"
    shift = datetime(_DELIVERY_APP.year, _DELIVERY_APP.month, _DELIVERY_APP.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("flowers_bg", "day", series, 397, cal, cats, [shift], incidents=incidents)


# a Kuwaiti co-operative society union's receipts per day by area (the members' supermarkets), on an ordinary
# Sunday: Wafra's farm co-op some twenty-seven times smaller than Hawalli's
_COOP_DAILY = {"hawalli": 52_000.0, "farwaniya": 41_000.0, "ahmadi": 29_000.0, "wafra": 1_900.0}
_COOP_WEEK = [0.92, 0.92, 0.95, 1.15, 1.2, 1.05, 1.0]  # Monday first: Thursday's evening and Friday's family shop
_HIJRI_EPOCH = date(622, 7, 19).toordinal()  # 1 Muharram 1 AH, the tabular calendar's civil epoch (Gregorian)
_COOP_SUMMER = ((6, 15), (8, 31), 0.78)  # families abroad for the summer (Wafra's farm workers stay: x0.95)
_COOP_PAYDAY = 20  # salaries credited on the Gregorian month's 20th: the five days from it x1.12 (in no calendar)
_CURFEW_MONTHS = {(1441, 8): 1.3, (1441, 9): 0.7, (1441, 10): 0.85}  # 2020's panic buying, curfew and reopening
_COOP_ONLINE = (1447, 4)  # Rabi' al-Thani 1447: the union's app orders counted in the co-ops' POS table


def _hijri_month_start(year: int, month: int) -> date:
    """The first day of a Hijri month in the tabular Islamic calendar (the "Kuwaiti algorithm": thirty-year cycles
    of eleven leap years, months of 30 and 29 days in turn, Dhu al-Hijjah 30 in a leap year)."""
    days = (year - 1) * 354 + (3 + 11 * year) // 30 + math.ceil(29.5 * (month - 1))
    return date.fromordinal(_HIJRI_EPOCH + days)


def _hijri_months(first_year: int, years: int) -> list[tuple[int, int, date, date]]:
    """Each Hijri month of `years` years from 1 Muharram `first_year`: (year, month, first day, last day)."""
    out = []
    for k in range(years * 12):
        y, m = first_year + k // 12, k % 12 + 1
        nxt = _hijri_month_start(y + (m == 12), m % 12 + 1)
        out.append((y, m, _hijri_month_start(y, m), nxt - timedelta(days=1)))
    return out


def _coop_day(d: date, area: str, hijri: tuple[int, int, int], cal: HolidayCalendar) -> float:
    """An area's receipts on `d` (Hijri year, month, day `hijri`) against an ordinary Sunday's: the week, the summer
    abroad, the salaries, Sha'ban's Ramadan stocking, Ramadan, the days before Eid al-Adha and the holidays."""
    _, month, day = hijri
    f = _COOP_WEEK[d.weekday()]
    if date(d.year, *_COOP_SUMMER[0]) <= d <= date(d.year, *_COOP_SUMMER[1]):
        f *= 0.95 if area == "wafra" else _COOP_SUMMER[2]
    if _COOP_PAYDAY <= d.day < _COOP_PAYDAY + 5:
        f *= 1.12
    if month == 8 and day >= 20:
        f *= 1.45  # Sha'ban's last days: rice, oil, vimto and dates for Ramadan
    elif month == 9:
        f *= 1.3 if day <= 20 else 1.1  # iftar tables; the last ten days' Eid shopping in the malls
    elif month == 12 and day <= 8:
        f *= 1.12
    name = cal.name(d) or ""
    if "Eid" in name:
        f *= 0.55
    elif "Arafah" in name:
        f *= 1.3  # the last shop before Eid al-Adha
    elif name in ("National Day", "Liberation Day"):
        f *= 0.85
    elif name:
        f *= 0.95
    return f


def coops_kw_hijri_monthly(seed: int) -> Estate:
    """Blind (twenty-fifth round): a Kuwaiti co-operative society union's receipts per Hijri month by area (four:
    Hawalli 52,000 an ordinary Sunday, Farwaniya 41,000, Ahmadi 29,000 and Wafra's farm co-op 1,900, some
    twenty-seven times smaller than Hawalli; in an order set by the seed). The union's ERP books by the tabular Hijri
    calendar (the "Kuwaiti algorithm"): each month a partition keyed on its first day (Gregorian), 29 or 30 days,
    twelve a year, eleven days earlier each Gregorian year. On Kuwait's holidays (the `holidays` package's KW: Eid
    al-Fitr and Eid al-Adha x0.55, the Day of Arafah x1.3, National and Liberation Days x0.85, others x0.95; the
    package's Eid may fall a day off the tabular month's). A month is the sum of its days: the week (`_COOP_WEEK`:
    a Friday-Saturday weekend, Thursday's evening and Friday's family shop high); Sha'ban's last days x1.45 (Ramadan's
    stocking), Ramadan's first twenty days x1.3 and its last ten x1.1, Dhu al-Hijjah's first eight x1.12. In no
    calendar: the summer abroad (15 June to 31 August x0.78, Wafra x0.95), drifting through the Hijri year; salaries
    on the Gregorian 20th (its five days x1.12), so a Hijri month of 29 days may hold no payday. From Rabi' al-Thani
    1447 (24 September 2025) the union's app orders are counted in the co-ops' table (x1.1 everywhere, accepted
    by the owner as a shift). In the history, 2020's pandemic months left as incidents (unlabelled, never
    evaluated): Sha'ban 1441's panic buying x1.3, Ramadan 1441's curfew x0.7, Shawwal 1441's reopening x0.85. 3%
    noise per area and month; +3% a year. From 1 Muharram 1441 (1 September 2019; 84 months to Dhu al-Hijjah 1447,
    June 2026): four Hijri years read, from 1 Muharram 1445 (19 July 2023) evaluated (36 months)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="KW")
    areas = _unequal(rng, list(_COOP_DAILY))
    months = _hijri_months(1441, 7)
    origin = months[0][2]
    series, cats, incidents = [], {}, set()
    for y, m, first, last in months:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        level = (1.1 if (y, m) >= _COOP_ONLINE else 1.0) * _CURFEW_MONTHS.get((y, m), 1.0)
        values = []
        for a in areas:
            receipts = sum(_coop_day(d, a, (y, m, k + 1), cal) * 1.03 ** ((d - origin).days / 365.25)
                           for k, d in enumerate(days))
            values.append(_noisy(rng, _COOP_DAILY[a] * receipts * level, 0.03))
        series.append((at, values))
        if (y, m) in _CURFEW_MONTHS:
            incidents.add(at)
        summer = sum(date(d.year, *_COOP_SUMMER[0]) <= d <= date(d.year, *_COOP_SUMMER[1]) for d in days)
        paydays = sum(d.day == _COOP_PAYDAY for d in days)
        if m == 9:
            cats[at] = "ramadan"
        elif m == 8:
            cats[at] = "shaban"
        elif m == 10:
            cats[at] = "shawwal"  # Eid al-Fitr's month
        elif m == 12:
            cats[at] = "dhu_al_hijjah"  # Arafah and Eid al-Adha
        elif summer >= 15:
            cats[at] = "summer"
        elif any(cal.name(d) in ("National Day", "Liberation Day") for d in days):
            cats[at] = "national_days"
        elif paydays != 1:
            cats[at] = "two_paydays" if paydays == 2 else "no_payday"
    shift = datetime(*_hijri_month_start(*_COOP_ONLINE).timetuple()[:3])
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 3]:  # the next two months
        cats.setdefault(at, "after_shift")
    return Estate("coops_kw_hijri_monthly", "day", series, 48, cal, cats, [shift], incidents=incidents)


# Ghana's cocoa purchases (tonnes) per buying week by region, in an average week of an average crop year: the Volta
# region's farms some twenty-six times smaller than the Western North's
_COCOA_WEEK = {"western_north": 4_200.0, "ashanti": 2_600.0, "western_south": 2_300.0, "eastern": 1_500.0,
               "central": 1_300.0, "volta": 160.0}
# by month, read at mid-month: the main crop from October (its peak in November and December), the light crop's
# smaller hump in July and August, the lean weeks of April to June and September
_COCOA_SEASON = [1.35, 0.95, 0.7, 0.5, 0.4, 0.35, 0.55, 0.6, 0.35, 1.0, 1.7, 1.8]
_COCOA_DAY = [1.0, 1.0, 1.0, 1.0, 1.0, 0.7, 0.1]  # Monday first: the buying sheds' days
# each crop year's harvest (October to September, by its first year): swollen shoot and the 2023 weather's blow
_CROP_YEARS = {2021: 1.0, 2022: 0.95, 2023: 0.68, 2024: 0.78, 2025: 0.88}
_BORDER = {"western_north", "volta"}  # the regions whose beans are smuggled when the neighbours pay more
_PRICE_RISE = date(2025, 11, 21)  # a mid-season producer price rise above the neighbours' (a Friday)
_FLOODS = (date(2025, 6, 20), {"central": 0.7, "western_south": 0.7})  # rains cut the feeder roads (no calendar)
_RETURNS_LOST = date(2024, 3, 8)  # the buying week whose Western North returns never reached the system


def _cocoa_day(d: date, cal: HolidayCalendar) -> float:
    """A day's purchases against an average weekday's: the crop's season (interpolated between mid-months), the
    crop year's size, the buying sheds' week, a holiday and the Christmas fortnight (farmers home)."""
    mid = date(d.year, d.month, 15)
    other = date(d.year + (d.month == 12), d.month % 12 + 1, 15) if d >= mid else \
        date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 15)
    w = abs((d - mid).days) / abs((other - mid).days)
    f = _COCOA_SEASON[mid.month - 1] * (1 - w) + _COCOA_SEASON[other.month - 1] * w
    f *= _CROP_YEARS[d.year if d.month >= 10 else d.year - 1] * _COCOA_DAY[d.weekday()]
    if cal.name(d):
        f *= 0.15
    if (d.month == 12 and d.day >= 22) or (d.month == 1 and d.day <= 2):
        f *= 0.8
    return f


def _main_crop_opening(year: int) -> date:
    """The main crop's first buying day: the first Friday of October."""
    return date(year, 10, 1) + timedelta(days=(4 - date(year, 10, 1).weekday()) % 7)


def cocoa_gh_weekly(seed: int) -> Estate:
    """Blind (twenty-fifth round): Ghana's cocoa purchases (tonnes, from the licensed buying companies' returns) per
    buying week by region (six: the Western North 4,200 in an average week, Ashanti 2,600, the Western South 2,300,
    Eastern 1,500, Central 1,300 and Volta 160, some twenty-six times smaller than the Western North; in an order set
    by the seed). The buying week runs Friday to Thursday (the clerks' returns close on Thursday evenings), keyed on
    its Friday. On Ghana's holidays (the `holidays` package's GH: a holiday's sheds x0.15, Farmers' Day on the first
    Friday of December among them). A week is the sum of its days: the sheds' week (`_COCOA_DAY`: Saturday x0.7,
    Sunday x0.1), the crop's season (`_COCOA_SEASON`, by month interpolated between mid-months: the main crop from
    October peaking in November and December at x1.7-1.8, the light crop's hump in July and August, April to June
    and September at x0.35-0.5), each crop year's size (October to September: 2023/24 x0.68 after swollen shoot and
    the weather, 2024/25 x0.78, 2025/26 x0.88). In no calendar: the main crop's opening on the first Friday of
    October (its first week x0.6 as the price is announced and the companies' cash arrives, its second x0.85); the
    Christmas fortnight (22 December to 2 January x0.8, farmers home); floods cutting the feeder roads in the week
    from Friday 20 June 2025 (Central and the Western South x0.7). From Friday 21 November 2025 a mid-season producer
    price rise above the neighbours' (the border regions, Western North and Volta, x1.3 as beans stop leaving; the
    others x1.04; accepted by the owner as a shift). The week from Friday 8 March 2024 lost the Western North's
    returns (x0.1 there; unlabelled, history only). 4% noise per region and week. From Friday 6 May 2022 (216 weeks,
    to the week from Friday 19 June 2026): three years read, from Friday 2 May 2025 evaluated (60 weeks)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GH")
    regions = _unequal(rng, list(_COCOA_WEEK))
    start = date(2022, 5, 6)
    series, cats, incidents = [], {}, set()
    for k in range(216):
        first = start + timedelta(weeks=k)
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=j) for j in range(7)]
        season = sum(_cocoa_day(d, cal) for d in days) / sum(_COCOA_DAY)  # against an average week
        opening = _main_crop_opening(first.year)
        season *= 0.6 if first == opening else 0.85 if first == opening + timedelta(weeks=1) else 1.0
        values = []
        for r in regions:
            f = season * (_FLOODS[1].get(r, 1.0) if first == _FLOODS[0] else 1.0)
            if first >= _PRICE_RISE:
                f *= 1.3 if r in _BORDER else 1.04
            if first == _RETURNS_LOST and r == "western_north":
                f *= 0.1
            values.append(_noisy(rng, _COCOA_WEEK[r] * f, 0.04))
        series.append((at, values))
        if first == _RETURNS_LOST:
            incidents.add(at)
        if first in (opening, opening + timedelta(weeks=1)):
            cats[at] = "main_crop_opening"
        elif any(cal.name(d) == "Farmers' Day" for d in days):
            cats[at] = "farmers_day"
        elif any((d.month == 12 and d.day >= 22) or (d.month == 1 and d.day <= 2) for d in days):
            cats[at] = "christmas"
        elif first == _FLOODS[0]:
            cats[at] = "floods"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_PRICE_RISE.year, _PRICE_RISE.month, _PRICE_RISE.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    return Estate("cocoa_gh_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Sri Lankan wine stores' chain's card sales per local hour by province: licensed liquor outlets open 09:00 to
# 20:59 (no rows, so no partition, outside those hours or on a day they are shut), on an ordinary Wednesday
_LIQUOR_OPEN = range(9, 21)
_LIQUOR_HOURS = [0.22, 0.3, 0.38, 0.45, 0.5, 0.55, 0.65, 0.8, 0.95, 1.0, 0.85, 0.6]  # 09:00 to 20:00 local
_LIQUOR_WEEK = [0.95, 0.95, 1.0, 1.05, 1.3, 1.35, 0.85]  # Monday first: Friday's and Saturday's evenings
_LIQUOR_PEAK = {"western": 380.0, "central": 75.0, "northern": 14.0}  # an ordinary Wednesday's busiest hour
_POYA_EVE = 1.7  # the afternoon before a poya day (from 14:00): every outlet shut by law the next day
_AVURUDU = (date(2026, 4, 9), date(2026, 4, 12))  # the Sinhala and Tamil New Year's run-up (in no calendar)
_CRICKET = date(2026, 4, 26)  # a T20 international at the Premadasa stadium, 19:00 (the western province stocks up)
_LK_EXCISE_RISE = datetime(2026, 4, 28, 0)  # local: a gazette raises the excise on spirits and beer (prices up a fifth)
_ACQUIRER_OUTAGE = (datetime(2026, 4, 6, 15), datetime(2026, 4, 6, 17))  # local: the card acquirer's switch down


def _liquor_shut(d: date, cal: HolidayCalendar) -> bool:
    """Every full moon poya day (liquor sales banned; the day after Vesak too) and the Sinhala and Tamil New Year's
    two days (the chain's staff home in their villages)."""
    name = cal.name(d) or ""
    return "Poya" in name or "Sinhala and Tamil New Year" in name


def _liquor_hour(local: datetime, province: str, cal: HolidayCalendar) -> float:
    """A province's sales in a local open hour against an ordinary Wednesday's busiest hour: the week, a poya's
    eve, the New Year's run-up, the cricket, the excise's eve and the excise itself."""
    d, h = local.date(), local.hour
    f = _LIQUOR_HOURS[h - _LIQUOR_OPEN[0]] * _LIQUOR_WEEK[d.weekday()]
    if _liquor_shut(d + timedelta(days=1), cal) and not _liquor_shut(d, cal) and h >= 14:
        f *= _POYA_EVE
    if _AVURUDU[0] <= d <= _AVURUDU[1]:
        f *= 1.3
    if d == _CRICKET and province == "western" and 14 <= h <= 18:
        f *= 1.4
    if d == _LK_EXCISE_RISE.date() - timedelta(days=1) and h >= 14:
        f *= 1.4  # stocking before the new prices
    if local >= _LK_EXCISE_RISE:
        f *= 0.82
    return f


def liquor_colombo_hourly(seed: int) -> Estate:
    """Blind (twenty-sixth round): a Sri Lankan wine stores' chain's card sales per local hour by province (three: the
    Western province 380 at an ordinary Wednesday's busiest hour, the Central 75 and the Northern 14, some twenty-seven
    times smaller than the Western; in an order set by the seed), in Asia/Colombo, five and a half hours ahead of UTC
    all year (every point on :30 UTC), on Sri Lanka's holidays (the `holidays` package's LK: a full moon poya day every
    month). The licensed outlets open 09:00 to 20:59 (`_LIQUOR_HOURS`, the evening's peak at 18:00): no rows, so no
    partition, at night, and none on a day they are shut: every poya day (liquor sales banned by law: Bak poya on 1
    April, Vesak on Friday 1 May and the day after it) and the Sinhala and Tamil New Year (13 and 14 April). The week
    (`_LIQUOR_WEEK`: Friday x1.3, Saturday x1.35, Sunday x0.85). In no calendar: the eve of a shut day from 14:00 (x1.7:
    Thursday 30 April, before Vesak's shut Friday and Saturday, "poya_eve"; Tuesday 31 March and Sunday 12 April in the
    history); the New Year's run-up (9 to 12 April x1.3, history only); a T20 international at the Premadasa stadium on
    Sunday 26 April (the Western province x1.4 from 14:00 to 18:59); the eve of an excise rise (Monday 27 April from
    14:00 x1.4, stocking before the new prices). From Tuesday 28 April 00:00 the excise rise (prices up a fifth: x0.82
    everywhere, accepted by the owner as a shift: its first partition the 09:00 hour). The card acquirer's switch failed
    on Monday 6 April 15:00-17:59 (x0.15; unlabelled, history only). Poisson counts with 5% extra noise per hour and
    province. From Thursday 26 March 2026: four weeks read, Thursday 23 April to Wednesday 6 May evaluated; the first
    open day after Vesak's two shut days (Sunday 3 May) is "reopening"."""
    rng = random.Random(seed)
    zone = "Asia/Colombo"
    cal = HolidayCalendar(country="LK")
    tz = ZoneInfo(zone)
    provinces = _unequal(rng, list(_LIQUOR_PEAK))
    start, first, last = date(2026, 3, 26), date(2026, 4, 23), date(2026, 5, 6)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        d = start + timedelta(days=k)
        if _liquor_shut(d, cal):
            continue
        for h in _LIQUOR_OPEN:
            local = datetime(d.year, d.month, d.day, h)
            outage = _ACQUIRER_OUTAGE[0] <= local <= _ACQUIRER_OUTAGE[1]
            values = [_poisson(rng, _LIQUOR_PEAK[p] * _liquor_hour(local, p, cal) * (0.15 if outage else 1.0)
                               * math.exp(rng.gauss(0, 0.05))) for p in provinces]
            at = _utc_hour(local, tz)
            series.append((at, values))
            if outage:
                incidents.add(at)
            if cal.name(d):
                cats[at] = "holiday"
            elif _liquor_shut(d + timedelta(days=1), cal) and h >= 14:
                cats[at] = "poya_eve"
            elif _liquor_shut(d - timedelta(days=1), cal):
                cats[at] = "reopening"
            elif d == _LK_EXCISE_RISE.date() - timedelta(days=1) and h >= 14:
                cats[at] = "excise_eve"
            elif d == _CRICKET and 14 <= h <= 18:
                cats[at] = "cricket"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_LK_EXCISE_RISE.replace(hour=_LIQUOR_OPEN[0]), tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 1 + 2 * len(_LIQUOR_OPEN)]:  # its next two days
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day, _LIQUOR_OPEN[0]), tz)
    return Estate("liquor_colombo_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a UAE courier's parcels delivered per day by emirate, on an ordinary Tuesday of early 2021: Umm Al Quwain some
# thirty times smaller than Dubai
_PARCEL_DAILY = {"dubai": 46_000.0, "abu_dhabi": 29_000.0, "sharjah": 20_000.0, "ajman": 7_000.0,
                 "ras_al_khaimah": 4_800.0, "fujairah": 2_500.0, "umm_al_quwain": 1_500.0}
_NEW_WEEKEND = date(2022, 1, 1)  # the federal working week moves to Monday-Friday (Friday a half day)
_OLD_PARCEL_WEEK = [1.0, 1.0, 1.0, 1.05, 0.3, 0.75, 1.15]  # Monday first: the Friday-Saturday weekend (to 2021)
_NEW_PARCEL_WEEK = [1.15, 1.0, 1.0, 1.0, 0.8, 0.65, 0.45]  # from 2022: the Saturday-Sunday weekend, Friday's half day
_SHARJAH_FRIDAY = 0.5  # from 2022 Sharjah's government works four days (Friday off): offices' parcels wait
_AE_RAMADAN = [(date(2021, 4, 13), date(2021, 5, 11)), (date(2022, 4, 2), date(2022, 4, 30))]
_AE_EID_RUN_UP = 7  # days before Eid al-Fitr's holidays: clothes, gifts and sweets ordered for Eid (x1.3)
_SHOPPING_FESTIVAL = ((12, 15), (1, 29))  # the Dubai Shopping Festival (Dubai x1.15; in no calendar)
_WHITE_FRIDAYS = [date(2021, 11, 26), date(2022, 11, 25)]  # the region's Black Friday: orders delivered the week after
_DIWALIS = [date(2021, 11, 4), date(2022, 10, 24)]  # the week before: Dubai, Sharjah and Ajman x1.15 (gifts, sweets)
_PARCEL_SUMMER = ((7, 1), (8, 25), 0.8)  # families abroad for the summer
_FUJAIRAH_FLOODS = (date(2022, 7, 27), date(2022, 7, 29), {"fujairah": 0.2, "ras_al_khaimah": 0.6, "sharjah": 0.85})
_MARKETPLACE = date(2022, 9, 5)  # a marketplace moves its last mile to the courier (a Monday)
_HANDHELD_OUTAGE = date(2021, 9, 14)  # the drivers' handheld app down most of a Tuesday (scans lost)


def _eid_al_fitr_first(cal: HolidayCalendar, year: int) -> date:
    """The first of the calendar's Eid al-Fitr days (its holidays begin on Ramadan's last day or two)."""
    return min(d for d in _holiday_days(cal, year) if "Eid al-Fitr" in cal.name(d))


def _parcel_day(d: date, emirate: str, cal: HolidayCalendar) -> float:
    """An emirate's deliveries on `d` against an ordinary Tuesday of early 2021: the week (moved on 1 January
    2022), the summer, Ramadan and Eid's run-up, the holidays, the shopping festival, the sales and Diwali."""
    week = _OLD_PARCEL_WEEK if d < _NEW_WEEKEND else _NEW_PARCEL_WEEK
    f = _SHARJAH_FRIDAY if emirate == "sharjah" and d >= _NEW_WEEKEND and d.weekday() == 4 else week[d.weekday()]
    if date(d.year, *_PARCEL_SUMMER[0]) <= d <= date(d.year, *_PARCEL_SUMMER[1]):
        f *= _PARCEL_SUMMER[2]
    eid = _eid_al_fitr_first(cal, d.year)
    if eid - timedelta(days=_AE_EID_RUN_UP) <= d < eid:
        f *= 1.3
    elif any(a <= d <= b for a, b in _AE_RAMADAN):
        f *= 1.12  # the nights' online orders
    name = cal.name(d) or ""
    if "Eid" in name:
        f *= 0.35
    elif name in ("National Day", "Commemoration Day", "New Year's Day"):
        f *= 0.5
    elif name:
        f *= 0.7
    festival = (d.month, d.day) >= _SHOPPING_FESTIVAL[0] or (d.month, d.day) <= _SHOPPING_FESTIVAL[1]
    if emirate == "dubai" and festival:
        f *= 1.15
    if any(w + timedelta(days=1) <= d <= w + timedelta(days=6) for w in _WHITE_FRIDAYS):
        f *= 1.5
    if d.month == 11 and 12 <= d.day <= 16:
        f *= 1.25  # 11.11's orders
    if emirate in ("dubai", "sharjah", "ajman") and any(w - timedelta(days=7) <= d < w for w in _DIWALIS):
        f *= 1.15
    if _FUJAIRAH_FLOODS[0] <= d <= _FUJAIRAH_FLOODS[1]:
        f *= _FUJAIRAH_FLOODS[2].get(emirate, 1.0)
    return f


def parcels_ae(seed: int) -> Estate:
    """Blind (twenty-sixth round): a UAE courier's parcels delivered per day by emirate (seven: Dubai 46,000 on an
    ordinary Tuesday of early 2021, Abu Dhabi 29,000, Sharjah 20,000, Ajman 7,000, Ras Al Khaimah 4,800, Fujairah 2,500
    and Umm Al Quwain 1,500, some thirty times smaller than Dubai; in an order set by the seed), on the UAE's holidays
    (the `holidays` package's AE: Eid's days x0.35, National Day, Commemoration Day and New Year's Day x0.5, others
    x0.7; the mourning of Sheikh Khalifa in May 2022 among them). The weekend moved for good inside the history: to
    Friday 31 December 2021 a Friday-Saturday weekend (`_OLD_PARCEL_WEEK`: Friday x0.3, Sunday's catch-up x1.15), from
    Saturday 1 January 2022 the federal Saturday-Sunday weekend with Friday a half day (`_NEW_PARCEL_WEEK`: Friday x0.8,
    Saturday x0.65, Sunday x0.45, Monday's catch-up x1.15), and Sharjah's four-day government week (its Fridays x0.5)
    (`shape_at`, twelve weeks before the evaluated window). In no calendar: Ramadan's days (x1.12, the nights' orders)
    and the week before Eid al-Fitr's holidays (x1.3); the summer abroad (1 July to 25 August x0.8); the Dubai Shopping
    Festival (15 December to 29 January, Dubai x1.15); White Friday's orders delivered from the Saturday to the Thursday
    after it (x1.5); 11.11's on the 12th to the 16th of November (x1.25); the week before Diwali (24 October 2022:
    Dubai, Sharjah and Ajman x1.15); floods in the east from Wednesday 27 to Friday 29 July 2022 (Fujairah x0.2, Ras Al
    Khaimah x0.6, Sharjah x0.85). From Monday 5 September 2022 a marketplace moves its last mile to the courier (x1.22
    everywhere, accepted by the owner as a shift). The drivers' handheld app failed most of Tuesday 14 September 2021
    (x0.3; unlabelled, history only). Poisson counts with 4% extra noise per emirate; +15% a year. From Friday 1 January
    2021 (761 days, to 31 January 2023): from Saturday 26 March 2022 evaluated."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AE")
    emirates = _unequal(rng, list(_PARCEL_DAILY))
    start, n = date(2021, 1, 1), 761
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (1.22 if d >= _MARKETPLACE else 1.0) * (0.3 if d == _HANDHELD_OUTAGE else 1.0) * 1.15 ** (i / 365.25)
        values = [_poisson(rng, _PARCEL_DAILY[e] * _parcel_day(d, e, cal) * lift * math.exp(rng.gauss(0, 0.04)))
                  for e in emirates]
        series.append((at, values))
        if d == _HANDHELD_OUTAGE:
            incidents.add(at)
        eid = _eid_al_fitr_first(cal, d.year)
        if cal.name(d):
            cats[at] = "holiday"
        elif _FUJAIRAH_FLOODS[0] <= d <= _FUJAIRAH_FLOODS[1]:
            cats[at] = "floods"
        elif eid - timedelta(days=_AE_EID_RUN_UP) <= d < eid:
            cats[at] = "eid_run_up"
        elif any(a <= d <= b for a, b in _AE_RAMADAN):
            cats[at] = "ramadan"
        elif any(w + timedelta(days=1) <= d <= w + timedelta(days=6) for w in _WHITE_FRIDAYS):
            cats[at] = "white_friday"
        elif d.month == 11 and 12 <= d.day <= 16:
            cats[at] = "singles_day"
        elif any(w - timedelta(days=7) <= d < w for w in _DIWALIS):
            cats[at] = "diwali"
        elif (d.month, d.day) >= _SHOPPING_FESTIVAL[0] or (d.month, d.day) <= _SHOPPING_FESTIVAL[1]:
            cats[at] = "shopping_festival"
        elif date(d.year, *_PARCEL_SUMMER[0]) <= d <= date(d.year, *_PARCEL_SUMMER[1]):
            cats[at] = "summer"
    shift = datetime(_MARKETPLACE.year, _MARKETPLACE.month, _MARKETPLACE.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("parcels_ae", "day", series, 449, cal, cats, [shift],
                  shape_at=[datetime(_NEW_WEEKEND.year, _NEW_WEEKEND.month, _NEW_WEEKEND.day)], incidents=incidents)


# a Georgian gas distributor's billed consumption (thousand m³) per billing cycle by region, on an ordinary summer
# day (cooking and hot water, no heating): Racha-Lechkhumi some thirty times smaller than Tbilisi over a year
_GAS_DAILY = {"tbilisi": 1_100.0, "imereti": 280.0, "kvemo_kartli": 240.0, "adjara": 170.0, "kakheti": 140.0,
              "shida_kartli": 130.0, "samegrelo": 120.0, "samtskhe_javakheti": 60.0, "mtskheta_mtianeti": 55.0,
              "guria": 45.0, "racha_lechkhumi": 35.0}
# each region's heating against its summer day at the coldest (the mountains colder, Adjara's subtropical coast
# milder, Kvemo Kartli's Rustavi factories a steady load)
_HEATING = {"tbilisi": 2.2, "imereti": 2.0, "kvemo_kartli": 1.0, "adjara": 1.0, "kakheti": 2.2, "shida_kartli": 2.4,
            "samegrelo": 1.6, "samtskhe_javakheti": 3.2, "mtskheta_mtianeti": 3.0, "guria": 1.4,
            "racha_lechkhumi": 3.0}
_COLD = [1.0, 0.9, 0.65, 0.3, 0.05, 0.0, 0.0, 0.0, 0.02, 0.25, 0.6, 0.9]  # by month, read at mid-month
_GAS_COLD_SNAPS = [(date(2022, 1, 20), date(2022, 1, 30)), (date(2025, 1, 8), date(2025, 1, 20))]  # +0.6 (no calendar)
_SEASIDE_SUMMER = ((7, 1), (8, 31))  # Batumi's tourists: Adjara x1.5, Tbilisi x0.88 (in no calendar)
_KAKHETI_MERGER = date(2024, 9, 24)  # a smaller distributor's Kakheti network merged in (its cycle's first day)
_ADJARA_UNLOADED = date(2022, 3, 29)  # the cycle whose Adjara readings were loaded in part


def _reading_day(year: int, month: int, cal: HolidayCalendar) -> date:
    """The month's last Tuesday, or the next working day after it when a holiday."""
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    d = nxt - timedelta(days=(nxt.weekday() - 1) % 7 or 7)
    while cal.name(d) or d.weekday() >= 5:
        d += timedelta(days=1)
    return d


def _billing_cycles(first: date, count: int, cal: HolidayCalendar) -> list[tuple[date, date]]:
    """`count` billing cycles from `first`'s month: each from a reading day to the day before the next."""
    reads = [_reading_day(first.year + (first.month - 1 + k) // 12, (first.month - 1 + k) % 12 + 1, cal)
             for k in range(count + 1)]
    return [(a, b - timedelta(days=1)) for a, b in pairwise(reads)]


def _gas_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's consumption on `d` against its summer day: its heating by the cold (interpolated between
    mid-months, cold snaps colder), the seaside summer, the New Year and Christmas feasts, the factories' weekend."""
    mid = date(d.year, d.month, 15)
    other = date(d.year + (d.month == 12), d.month % 12 + 1, 15) if d >= mid else \
        date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 15)
    w = abs((d - mid).days) / abs((other - mid).days)
    cold = _COLD[mid.month - 1] * (1 - w) + _COLD[other.month - 1] * w
    if any(a <= d <= b for a, b in _GAS_COLD_SNAPS):
        cold += 0.6
    f = 1 + _HEATING[region] * cold
    if date(d.year, *_SEASIDE_SUMMER[0]) <= d <= date(d.year, *_SEASIDE_SUMMER[1]):
        f *= 1.5 if region == "adjara" else 0.88 if region == "tbilisi" else 1.0
    if (d.month == 12 and d.day == 31) or (d.month == 1 and d.day <= 7):
        f *= 1.08  # families home, the feasts' cooking (New Year's Day to Orthodox Christmas)
    if region == "kvemo_kartli" and (d.weekday() >= 5 or cal.name(d)):
        f *= 0.85
    return f


def gas_ge_monthly(seed: int) -> Estate:
    """Blind (twenty-sixth round): a Georgian gas distributor's billed consumption (thousand m³) per billing cycle by
    region (eleven: Tbilisi 1,100 on an ordinary summer day, Imereti 280, Kvemo Kartli 240, Adjara 170, Kakheti 140,
    Shida Kartli 130, Samegrelo 120, Samtskhe-Javakheti 60, Mtskheta-Mtianeti 55, Guria 45 and Racha-Lechkhumi 35, some
    thirty times smaller than Tbilisi over a year; in an order set by the seed). The meters are read on each month's
    last Tuesday (the next working day when it is a holiday on Georgia's calendar, the `holidays` package's GE): a
    billing cycle runs from a reading day to the day before the next, keyed on its first day, of four or five weeks (28
    or 35 days; no last Tuesday of these years is a holiday, none moved). A cycle is the sum of its days: each region's
    heating by the cold (`_COLD` by month, interpolated between mid-months, times `_HEATING`: the mountains up to x4.2
    their summer day, Adjara's coast x2), Kvemo Kartli's factories (weekends and holidays x0.85), the New Year to
    Orthodox Christmas (31 December to 7 January x1.08). In no calendar: cold snaps (20 to 30 January 2022 in the
    history, 8 to 20 January 2025: +0.6 on the cold), the seaside summer (July and August: Adjara x1.5 with Batumi's
    tourists, Tbilisi x0.88). From the cycle of Tuesday 24 September 2024 a smaller distributor's Kakheti network is
    merged in (Kakheti x1.6, the others unmoved; accepted by the owner as a shift). The cycle from Tuesday 29 March 2022
    loaded Adjara's readings in part (x0.45 there; unlabelled, history only). 2% noise per region and cycle; +2% a year
    (new connections). From the cycle of Tuesday 24 November 2020 (64 cycles, to March 2026): 36 read, from the cycle of
    28 November 2023 evaluated (28)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GE")
    regions = _unequal(rng, list(_GAS_DAILY))
    cycles = _billing_cycles(date(2020, 11, 1), 64, cal)
    origin = cycles[0][0]
    series, cats, incidents = [], {}, set()
    for first, last in cycles:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        values = []
        for r in regions:
            level = (1.6 if r == "kakheti" and first >= _KAKHETI_MERGER else 1.0) * \
                (0.45 if r == "adjara" and first == _ADJARA_UNLOADED else 1.0)
            used = sum(_gas_day(d, r, cal) * 1.02 ** ((d - origin).days / 365.25) for d in days)
            values.append(_noisy(rng, _GAS_DAILY[r] * used * level, 0.02))
        series.append((at, values))
        if first == _ADJARA_UNLOADED:
            incidents.add(at)
        if any(a <= d <= b for a, b in _GAS_COLD_SNAPS for d in days):
            cats[at] = "cold_snap"
        elif any((d.month, d.day) == (1, 1) for d in days):
            cats[at] = "new_year"
        elif sum(date(d.year, *_SEASIDE_SUMMER[0]) <= d <= date(d.year, *_SEASIDE_SUMMER[1]) for d in days) >= 14:
            cats[at] = "seaside_summer"
        elif len(days) >= 35:
            cats[at] = "five_weeks"
    shift = datetime(_KAKHETI_MERGER.year, _KAKHETI_MERGER.month, _KAKHETI_MERGER.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 3]:  # the next two cycles
        cats.setdefault(at, "after_shift")
    return Estate("gas_ge_monthly", "day", series, 36, cal, cats, [shift], incidents=incidents)


# a Mauritian supermarket chain's receipts per day by district, on an ordinary Wednesday: Rodrigues's one store
# some thirty times smaller than Plaines Wilhems's
_MU_DAILY = {"plaines_wilhems": 9_000.0, "port_louis": 6_500.0, "pamplemousses": 4_000.0, "rodrigues": 300.0}
_MU_WEEK = [0.85, 0.8, 0.85, 0.95, 1.2, 1.45, 0.9]  # Monday first: Friday's and Saturday's family shop
_MU_CLOSED = ("Christmas Day", "New Year's Day")  # the stores' two closed days (x0.1: the Rodrigues kiosk only)
_MU_FESTIVALS = ("Diwali", "Eid al-Fitr", "Chinese Spring Festival")  # the week before each x1.25 (sweets, oil, flour)
_YEAR_END = ((12, 10), (12, 31))  # the end-of-year bonus paid, Christmas and New Year's Eve: x1.25, from the 20th x1.5
_BACK_TO_SCHOOL = ((1, 3), (1, 20))  # uniforms, books and lunch boxes before the school year (x1.12)
# class 3 cyclone warnings (stores shut) with the days before them (queues for rice, candles, bread): in no calendar
_MU_CYCLONES = {date(2024, 1, 14): ("mauritius", 1.6), date(2024, 1, 15): ("mauritius", 0.0),
                date(2024, 1, 16): ("mauritius", 0.4), date(2025, 4, 14): ("rodrigues", 1.7),
                date(2025, 4, 15): ("rodrigues", 0.05), date(2026, 2, 10): ("mauritius", 1.6),
                date(2026, 2, 11): ("mauritius", 0.15), date(2026, 2, 12): ("mauritius", 0.5)}
_GRAND_BAIE = date(2025, 9, 6)  # a hypermarket opens at Grand Baie (Pamplemousses) on a Saturday
_PORT_LOUIS_EXPORT = date(2023, 9, 9)  # the week whose Port Louis receipts export failed in part


def _mu_festival(cal: HolidayCalendar, d: date) -> bool:
    """Diwali, Eid al-Fitr or the Chinese Spring Festival on `d` (the calendar may name it "(estimated)" or share
    its day with another holiday)."""
    name = cal.name(d) or ""
    return any(f in name for f in _MU_FESTIVALS)


def _mu_day(d: date, district: str, cal: HolidayCalendar) -> float:
    """A district's receipts on `d` against an ordinary Wednesday's: the week, the closed days and other holidays,
    a festival's run-up, the year's end, the school year's start and the cyclones."""
    f = _MU_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if name in _MU_CLOSED:
        f *= 0.1
    elif name:
        f *= 0.75
    if any(_mu_festival(cal, d + timedelta(days=k)) for k in range(1, 8)):
        f *= 1.25
    if date(d.year, *_YEAR_END[0]) <= d <= date(d.year, *_YEAR_END[1]):
        f *= 1.5 if d.day >= 20 else 1.25
    if date(d.year, *_BACK_TO_SCHOOL[0]) <= d <= date(d.year, *_BACK_TO_SCHOOL[1]):
        f *= 1.12
    island, factor = _MU_CYCLONES.get(d, ("", 1.0))
    if (island == "rodrigues") == (district == "rodrigues") and island:
        f *= factor
    return f


def groceries_mu_weekly(seed: int) -> Estate:
    """Blind (twenty-sixth round): a Mauritian supermarket chain's receipts per trading week by district (four: Plaines
    Wilhems 9,000 on an ordinary Wednesday, Port Louis 6,500, Pamplemousses 4,000 and Rodrigues's one store 300, some
    thirty times smaller than Plaines Wilhems; in an order set by the seed). The chain's promotions week runs Saturday
    to Friday, keyed on its Saturday. On Mauritius's holidays (the `holidays` package's MU: Hindu, Muslim, Chinese,
    Tamil and Christian festivals; Christmas Day and New Year's Day the stores shut, x0.1; the others x0.75). A week is
    the sum of its days: the week (`_MU_WEEK`: Friday x1.2, Saturday x1.45). In no calendar: the seven days before
    Diwali, Eid al-Fitr and the Chinese Spring Festival (x1.25: sweets, oil, flour, cakes); the year's end (the
    end-of-year bonus paid: 10 to 19 December x1.25, 20 to 31 December x1.5); the school year's start (3 to 20 January
    x1.12); class 3 cyclone warnings shutting the stores (on Mauritius Monday 15 January 2024 in the history and
    Wednesday 11 February 2026 to the next noon, each after a day of queues x1.6; on Rodrigues alone Tuesday 15 April
    2025, a late cyclone, after a day x1.7). From Saturday 6 September 2025 a hypermarket opens at Grand Baie
    (Pamplemousses x1.4, the others unmoved; accepted by the owner as a shift). The week from Saturday 9 September 2023
    lost part of Port Louis's receipts (x0.4 there; unlabelled, history only). 3% noise per district and week; +4% a
    year. From Saturday 2 April 2022 (216 weeks, to the week from Saturday 16 May 2026): three years read, from Saturday
    29 March 2025 evaluated (60 weeks)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MU")
    districts = _unequal(rng, list(_MU_DAILY))
    series = _weekly_sums(rng, date(2022, 4, 2), 216, districts, _MU_DAILY, lambda d, g: _mu_day(d, g, cal),
                          growth=1.04, noise=0.03, step=("pamplemousses", _GRAND_BAIE, 1.4),
                          loss=("port_louis", _PORT_LOUIS_EXPORT, 0.4))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_PORT_LOUIS_EXPORT.year, _PORT_LOUIS_EXPORT.month, _PORT_LOUIS_EXPORT.day)}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        if any(d in _MU_CYCLONES for d in days):
            cats[at] = "cyclone"
        elif any(date(d.year, *_YEAR_END[0]) <= d <= date(d.year, *_YEAR_END[1]) for d in days):
            cats[at] = "year_end"
        elif any(_mu_festival(cal, d + timedelta(days=j)) for d in days for j in range(8)):
            cats[at] = "festival"  # its run-up or its day
        elif any(date(d.year, *_BACK_TO_SCHOOL[0]) <= d <= date(d.year, *_BACK_TO_SCHOOL[1]) for d in days):
            cats[at] = "back_to_school"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_GRAND_BAIE.year, _GRAND_BAIE.month, _GRAND_BAIE.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    return Estate("groceries_mu_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Mongolian university's library gate entries per local hour by library, at an ordinary Tuesday's busiest hour
# (noon): the Darkhan branch campus's reading room some thirty times smaller than the central library
_LIBRARY_PEAK = {"central": 420.0, "science": 170.0, "darkhan_branch": 16.0}
_TERM_HOURS = [0.45, 0.75, 0.9, 0.85, 1.0, 0.95, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4, 0.3, 0.15]  # 08:00 to 21:00 local
_TERM_OPEN = range(8, 22)  # Monday to Friday; Saturdays 10:00-17:59 (x0.5); shut on Sundays and holidays
_SATURDAY_OPEN = range(10, 18)
_LIBRARY_WEEK = [1.0, 1.0, 0.95, 0.95, 0.8, 0.5, 0.5]  # Monday first: Friday afternoons empty, the weekend's half days
# the examination session's nights (the central and science libraries open around the clock), against the peak
_EXAM_NIGHTS = {22: 0.45, 23: 0.3, 0: 0.2, 1: 0.12, 2: 0.08, 3: 0.05, 4: 0.04, 5: 0.05, 6: 0.12, 7: 0.3}
_EXAM_SESSION = (datetime(2026, 5, 25, 22), datetime(2026, 6, 5, 21))  # local: around the clock (in no calendar)
_EXAM_DAYS = 1.5  # the session's day hours against term's (from Tuesday 26 May)
_STATE_EXAM_EVE = (datetime(2026, 6, 4, 18), datetime(2026, 6, 5, 3))  # the night before the state examination
_DUST_STORM = (datetime(2026, 5, 27, 13), datetime(2026, 5, 27, 17))  # local: a spring dust storm (in no calendar)
_READING_HALL = datetime(2026, 6, 2, 8)  # local: the science library's new reading hall (a Tuesday's opening hour)
_GATE_OUTAGE = (datetime(2026, 5, 5, 10), datetime(2026, 5, 5, 13))  # local: the central library's gates offline


def _library_open(local: datetime, library: str, cal: HolidayCalendar) -> bool:
    """Whether `library` has rows in the local hour: term hours on weekdays and Saturdays (shut on Sundays and
    holidays), and around the clock in the examination session (the branch campus keeps its term hours)."""
    d, h = local.date(), local.hour
    if library != "darkhan_branch" and _EXAM_SESSION[0] <= local <= _EXAM_SESSION[1]:
        return True
    if d.weekday() == 6 or cal.name(d):
        return False
    return h in (_SATURDAY_OPEN if d.weekday() == 5 else _TERM_OPEN)


def _library_hour(local: datetime, library: str, cal: HolidayCalendar) -> float:
    """A library's entries in a local hour against its ordinary Tuesday noon: term's hours and week, the session's
    days, nights and holidays, the state examination's eve and the dust storm."""
    if not _library_open(local, library, cal):
        return 0.0
    d, h = local.date(), local.hour
    session = library != "darkhan_branch" and _EXAM_SESSION[0] <= local <= _EXAM_SESSION[1]
    if session and h in _EXAM_NIGHTS:
        f = _EXAM_NIGHTS[h]
    else:
        f = _TERM_HOURS[h - _TERM_OPEN[0]] * _LIBRARY_WEEK[d.weekday()]
        if session and d.weekday() >= 5:
            f = _TERM_HOURS[h - _TERM_OPEN[0]] * 0.8  # the session's weekends: nearly a weekday's
    if d >= date(2026, 5, 26) and d <= _EXAM_SESSION[1].date():
        f *= _EXAM_DAYS if h not in _EXAM_NIGHTS else 1.0
        if library == "darkhan_branch":
            f /= 1.15  # the branch's students sit fewer examinations there
    if session and cal.name(d):
        f *= 0.8 if h in _EXAM_NIGHTS else 0.55  # Buddha's Birthday and Children's Day: families by day
    if _STATE_EXAM_EVE[0] <= local <= _STATE_EXAM_EVE[1]:
        f *= 1.6
    if _DUST_STORM[0] <= local <= _DUST_STORM[1]:
        f *= 0.55
    if library == "science" and local >= _READING_HALL:
        f *= 1.4
    return f


def library_ulaanbaatar_hourly(seed: int) -> Estate:
    """Blind (twenty-seventh round): a Mongolian university's library gate entries per local hour by library (three:
    the central library 420 at an ordinary Tuesday's noon, the science library 170 and the Darkhan branch campus's
    reading room 16, some thirty times smaller than the central library; in an order set by the seed), in
    Asia/Ulaanbaatar, eight hours ahead of UTC all year (every point on the hour), on Mongolia's holidays (the
    `holidays` package's MN: Buddha's Birthday on Sunday 31 May 2026, Children's Day on Monday 1 June). In term the
    libraries open 08:00 to 21:59 on weekdays (`_TERM_HOURS`, noon's peak; `_LIBRARY_WEEK`: Friday x0.8) and 10:00 to
    17:59 on Saturdays (x0.5), shut on Sundays and holidays: no rows, so no partition, outside those hours. In no
    calendar: the spring examination session; from Monday 25 May 22:00 to Friday 5 June 21:59 the central and science
    libraries stay open around the clock (new partitions: the nights' hours, `_EXAM_NIGHTS`, never seen in the history;
    the weekend's hours and both holidays open, the holidays' days x0.55, their nights x0.8), the session's day hours
    from Tuesday 26 May x1.5 (the branch x1.3, its term hours kept: zero in the others' night partitions); the night
    before the state examination (Thursday 4 June 18:00 to Friday 03:59, x1.6); a dust storm on Wednesday 27 May 13:00
    to 17:59 (x0.55). From Tuesday 2 June 08:00 the science library's new reading hall opens (science x1.4, the others
    unmoved; accepted by the owner as a shift: its first partition the 08:00 hour). The central library's gates were
    offline on Tuesday 5 May 10:00-13:59 (x0.1 there; unlabelled, history only). Poisson counts with 5% extra noise per
    hour and library. From Monday 20 April 2026: term's weeks read, Saturday 23 May to Friday 5 June evaluated;
    categories "exam_day", "exam_weekend", "exam_night", "exam_eve", "holiday", "dust_storm", "after_shift"."""
    rng = random.Random(seed)
    zone = "Asia/Ulaanbaatar"
    cal = HolidayCalendar(country="MN")
    tz = ZoneInfo(zone)
    libraries = _unequal(rng, list(_LIBRARY_PEAK))
    start, first, last = date(2026, 4, 20), date(2026, 5, 23), date(2026, 6, 5)
    series, cats, incidents = [], {}, set()
    for k in range((last - start).days + 1):
        for h in range(24):
            d = start + timedelta(days=k)
            local = datetime(d.year, d.month, d.day, h)
            if not any(_library_open(local, lib, cal) for lib in libraries):
                continue
            values = []
            for lib in libraries:
                f = _library_hour(local, lib, cal)
                if lib == "central" and _GATE_OUTAGE[0] <= local <= _GATE_OUTAGE[1]:
                    f *= 0.1
                values.append(_poisson(rng, _LIBRARY_PEAK[lib] * f * math.exp(rng.gauss(0, 0.05))) if f else 0.0)
            at = _utc_hour(local, tz)
            series.append((at, values))
            if _GATE_OUTAGE[0] <= local <= _GATE_OUTAGE[1]:
                incidents.add(at)
            if cal.name(d):
                cats[at] = "holiday"
            elif _STATE_EXAM_EVE[0] <= local <= _STATE_EXAM_EVE[1]:
                cats[at] = "exam_eve"
            elif _DUST_STORM[0] <= local <= _DUST_STORM[1]:
                cats[at] = "dust_storm"
            elif _EXAM_SESSION[0] <= local <= _EXAM_SESSION[1] and h in _EXAM_NIGHTS:
                cats[at] = "exam_night"
            elif _EXAM_SESSION[0] <= local <= _EXAM_SESSION[1] and d.weekday() >= 5:
                cats[at] = "exam_weekend"
            elif date(2026, 5, 26) <= d <= _EXAM_SESSION[1].date():
                cats[at] = "exam_day"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_READING_HALL, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 25]:  # its next day's hours (the session's own)
        if cats.get(at) in ("exam_day", "exam_night"):
            cats[at] = "after_shift"
    tail = _utc_hour(datetime(first.year, first.month, first.day, _SATURDAY_OPEN[0]), tz)
    return Estate("library_ulaanbaatar_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# an Ecuadorian bookshop and stationery chain's receipts per day by province, on an ordinary Wednesday of early
# 2023: Galápagos's one shop some twenty-eight times smaller than Guayas
_STATIONERY_DAILY = {"guayas": 4_200.0, "pichincha": 3_800.0, "manabi": 1_300.0, "azuay": 1_100.0, "el_oro": 800.0,
                     "los_rios": 700.0, "tungurahua": 600.0, "imbabura": 450.0, "loja": 420.0, "esmeraldas": 380.0,
                     "santa_elena": 300.0, "galapagos": 150.0}
# the two school regimes: the coast's school year starts in April or May, the highlands' (and Galápagos's) in
# September; each region's fourteenth salary (décimo cuarto sueldo) is paid by 15 March (the coast, Galápagos) or by
# 15 August (the highlands), to pay for the school year's start
_EC_COAST = {"guayas", "manabi", "el_oro", "los_rios", "esmeraldas", "santa_elena"}
_FOURTEENTH_ON_THE_COAST = _EC_COAST | {"galapagos"}
_SCHOOL_STARTS = {"coast": [date(2023, 4, 17), date(2024, 4, 22)], "highlands": [date(2023, 9, 4), date(2024, 9, 2)]}
_SCHOOL_RUN_UP = 21  # days before the first day of classes that the lists of school supplies are bought (x1.8)
_FIRST_WEEKS = 14  # the first fortnight of classes: the teachers' second lists (x1.3)
_STATIONERY_WEEK = [0.95, 0.9, 1.0, 1.0, 1.1, 1.3, 0.7]  # Monday first: Saturday's family shopping, a short Sunday
_BEACHES = {"santa_elena", "esmeraldas"}  # Carnival's beaches: the coast's resorts fill (x1.4), the cities empty
_POWER_CUTS = [(date(2024, 9, 23), date(2024, 10, 31), 0.88), (date(2024, 11, 1), date(2024, 12, 1), 0.78),
               (date(2024, 12, 2), date(2024, 12, 20), 0.92)]  # the drought's scheduled blackouts (no calendar)
_EC_BLACK_FRIDAYS = [date(2023, 11, 24), date(2024, 11, 29)]
_QUITO_TAKEOVER = date(2024, 7, 15)  # a rival's Quito stores rebranded into the chain (a Monday): Pichincha x1.3
_POS_CLOUD_DOWN = date(2023, 9, 2)  # the tills' cloud service down most of a Saturday (receipts not uploaded)


def _ec_school_start(province: str, d: date) -> date | None:
    """The next first day of classes of `province`'s school regime within the run-up, or the last one within the
    first fortnight (None when neither)."""
    regime = "coast" if province in _EC_COAST else "highlands"
    for start in _SCHOOL_STARTS[regime]:
        if -_FIRST_WEEKS < (start - d).days <= _SCHOOL_RUN_UP:
            return start
    return None


def _stationery_day(d: date, province: str, cal: HolidayCalendar) -> float:
    """A province's receipts on `d` against an ordinary Wednesday: the week, the holidays and Carnival's beaches,
    the school year's start by regime, the fourteenth salary by region, December's gifts, Black Friday and the
    blackouts."""
    f = _STATIONERY_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if name in ("Christmas Day", "New Year's Day"):
        f *= 0.15  # the shops shut; the web shop's orders only
    elif "Carnival" in name:
        f *= 1.4 if province in _BEACHES else 0.6
    elif name:
        f *= 0.8
    start = _ec_school_start(province, d)
    if start is not None:
        f *= 1.8 if d < start else 1.3
    month = 3 if province in _FOURTEENTH_ON_THE_COAST else 8
    if d.month == month and 13 <= d.day <= 22:
        f *= 1.2
    if d.month == 12 and 10 <= d.day <= 24:
        f *= 1.6 if d.day >= 20 else 1.3  # the thirteenth salary (by 24 December): books and toys for Christmas
    if d in _EC_BLACK_FRIDAYS:
        f *= 1.6
    elif any(0 < (d - b).days <= 2 for b in _EC_BLACK_FRIDAYS):
        f *= 1.3
    if province != "galapagos":  # the islands' own diesel grid
        f *= next((cut for a, b, cut in _POWER_CUTS if a <= d <= b), 1.0)
    return f


def stationers_ec(seed: int) -> Estate:
    """Blind (twenty-seventh round): an Ecuadorian bookshop and stationery chain's receipts per day by province
    (twelve: Guayas 4,200 on an ordinary Wednesday of early 2023, Pichincha 3,800, Manabí 1,300, Azuay 1,100, El Oro
    800, Los Ríos 700, Tungurahua 600, Imbabura 450, Loja 420, Esmeraldas 380, Santa Elena 300 and Galápagos's one shop
    150, some twenty-eight times smaller than Guayas; in an order set by the seed), on Ecuador's holidays (the
    `holidays` package's EC, its holidays moved to Fridays and Mondays as "(observed)"; Christmas Day and New Year's Day
    the shops shut, x0.15; Carnival's Monday and Tuesday the cities x0.6 and the beach provinces Santa Elena and
    Esmeraldas x1.4; the others x0.8). The week (`_STATIONERY_WEEK`: Saturday x1.3, Sunday x0.7). In no calendar: the
    two school regimes; the coast's six provinces start classes on 17 April 2023 and 22 April 2024, the highlands' five
    and Galápagos on 4 September 2023 and 2 September 2024: the 21 days before each first day x1.8 (the lists of
    school supplies) and its first fortnight x1.3, each province on its own regime's dates; the fourteenth salary, paid
    by 15 March on the coast and Galápagos and by 15 August in the highlands (the 13th to the 22nd of that month x1.2);
    December's thirteenth salary and gifts (10 to 19 December x1.3, 20 to 24 December x1.6); Black Friday (x1.6, the
    weekend after x1.3); the drought's scheduled blackouts (23 September to 31 October 2024 x0.88, November x0.78, 2 to
    20 December x0.92; Galápagos on its own grid, unmoved). From Monday 15 July 2024 a rival's Quito stores rebranded
    into the chain (Pichincha x1.3, the others unmoved; accepted by the owner as a shift). The tills' cloud service
    failed most of Saturday 2 September 2023 (x0.25 everywhere; unlabelled, history only). Poisson counts with 3% extra
    noise per province; +5% a year. From Monday 2 January 2023 (731 days, to Wednesday 1 January 2025): from Tuesday
    6 February 2024 evaluated; categories "holiday", "back_to_school", "classes_start", "fourteenth_salary",
    "christmas", "black_friday", "power_cuts", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="EC")
    provinces = _unequal(rng, list(_STATIONERY_DAILY))
    start, n = date(2023, 1, 2), 731
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.25 if d == _POS_CLOUD_DOWN else 1.0) * 1.05 ** (i / 365.25)
        values = [_poisson(rng, _STATIONERY_DAILY[p] * _stationery_day(d, p, cal) * lift
                           * (1.3 if p == "pichincha" and d >= _QUITO_TAKEOVER else 1.0)
                           * math.exp(rng.gauss(0, 0.03))) for p in provinces]
        series.append((at, values))
        if d == _POS_CLOUD_DOWN:
            incidents.add(at)
        starts = [s for p in _STATIONERY_DAILY if (s := _ec_school_start(p, d)) is not None]
        if cal.name(d):
            cats[at] = "holiday"
        elif d in _EC_BLACK_FRIDAYS or any(0 < (d - b).days <= 2 for b in _EC_BLACK_FRIDAYS):
            cats[at] = "black_friday"
        elif d.month == 12 and 10 <= d.day <= 24:
            cats[at] = "christmas"
        elif starts:
            cats[at] = "back_to_school" if d < starts[0] else "classes_start"
        elif d.month in (3, 8) and 13 <= d.day <= 22:
            cats[at] = "fourteenth_salary"
        elif any(a <= d <= b for a, b, _ in _POWER_CUTS):
            cats[at] = "power_cuts"
    shift = datetime(_QUITO_TAKEOVER.year, _QUITO_TAKEOVER.month, _QUITO_TAKEOVER.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 28, first=1)
    return Estate("stationers_ec", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Papua New Guinean supermarket chain's receipts per day by province, on an ordinary Wednesday of early 2022 in
# the middle of a pay fortnight: Manus's one store some twenty-seven times smaller than the National Capital
# District's
_PG_DAILY = {"ncd": 9_000.0, "morobe": 6_000.0, "western_highlands": 3_500.0, "east_new_britain": 2_000.0,
             "manus": 330.0}
_PG_FIRST_PAYDAY = date(2022, 1, 13)  # the public service's and most employers' pay Thursdays: every fourteenth day
# a day's receipts by the days since the last payday (the payday itself, its Friday and Saturday, then the lean days
# before the next), and by the day of the week (Monday first: Sunday's church)
_PAY_CYCLE = [1.8, 1.5, 1.3, 1.15, 1.05, 0.95, 0.9, 0.85, 0.8, 0.8, 0.75, 0.72, 0.7, 0.7]
_PG_WEEK = [0.95, 0.95, 1.0, 1.0, 1.05, 1.15, 0.75]
_PG_CLOSED = ("Good Friday", "Christmas Day")  # the stores shut (x0.1: the fuel stations' kiosks only)
_COFFEE_SEASON = ((4, 15), (8, 31))  # the highlands' coffee cherry money: Western Highlands x1.25 (no calendar)
_SCHOOL_FEES = ((1, 15), (2, 10))  # the school year's fees and supplies: groceries cut (x0.88; no calendar)
_FIFTY_YEARS = (date(2025, 9, 10), date(2025, 9, 20))  # the fiftieth Independence's celebrations (x1.3; no calendar)
_LAE_HYPERMARKET = date(2025, 6, 26)  # a hypermarket opens in Lae on a pay Thursday: Morobe x1.35
_BLACK_WEDNESDAY = date(2024, 1, 11)  # the fortnight after the riots of 10 January 2024: Port Moresby's stores shut


def _pay_thursdays(first: date, count: int) -> list[date]:
    """Every second Thursday from `first`: the fortnights' keys (the regular paydays)."""
    return [first + timedelta(days=14 * k) for k in range(count)]


def _payday_paid(thursday: date, cal: HolidayCalendar) -> date:
    """The day a pay Thursday's wages are paid: the Thursday, or the working day before it when a holiday."""
    d = thursday
    while cal.name(d) or d.weekday() >= 5:
        d -= timedelta(days=1)
    return d


def _pg_day(d: date, province: str, cal: HolidayCalendar, paid: list[date]) -> float:
    """A province's receipts on `d` against an ordinary mid-fortnight Wednesday: the pay cycle (from the day wages
    were actually paid), the week, the holidays, Christmas, the school fees, the coffee season and the fiftieth
    Independence."""
    last_paid = max(p for p in paid if p <= d)
    f = _PAY_CYCLE[min((d - last_paid).days, 13)] * _PG_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if any(c in name for c in _PG_CLOSED):
        f *= 0.1
    elif name:
        f *= 0.85
    if d.month == 12 and 10 <= d.day <= 24:
        f *= 1.35  # Christmas: the year-end bonus, the village trips' stock
    if date(d.year, *_SCHOOL_FEES[0]) <= d <= date(d.year, *_SCHOOL_FEES[1]):
        f *= 0.88
    if province == "western_highlands" and date(d.year, *_COFFEE_SEASON[0]) <= d <= date(d.year, *_COFFEE_SEASON[1]):
        f *= 1.25
    if _FIFTY_YEARS[0] <= d <= _FIFTY_YEARS[1]:
        f *= 1.3
    return f


def stores_pg_fortnightly(seed: int) -> Estate:
    """Blind (twenty-seventh round): a Papua New Guinean supermarket chain's receipts per pay fortnight by province
    (five: the National Capital District 9,000 on an ordinary mid-fortnight Wednesday of early 2022, Morobe 6,000,
    Western Highlands 3,500, East New Britain 2,000 and Manus's one store 330, some twenty-seven times smaller than the
    capital; in an order set by the seed). The public service and most employers pay every second Thursday: a
    partition is a pay fortnight from a pay Thursday to the Wednesday thirteen days later, keyed on the Thursday (26 or
    27 a year, drifting through the months: from Thursday 13 January 2022). On Papua New Guinea's holidays (the
    `holidays` package's PG: Good Friday and Christmas Day the stores shut, x0.1; the others x0.85). A fortnight is the
    sum of its days: `_PAY_CYCLE` by the days since wages were paid (the payday x1.8, its Friday x1.5, the last days
    x0.7) and the week (`_PG_WEEK`: Saturday x1.15, Sunday x0.75). A pay Thursday on a holiday is paid on the working
    day before it (Boxing Day, Thursday 26 December 2024, paid on Tuesday 24 December; Christmas Day, Thursday 25
    December 2025, paid on Wednesday 24 December): its payday's receipts fall in the fortnight before
    ("payday_moved"), and the fortnight it keys starts without it (in 2025 on a shut day). In no calendar: Christmas
    (10 to 24 December x1.35); the school fees (15 January to 10 February x0.88); the highlands' coffee season (15
    April to 31 August: Western Highlands x1.25); the fiftieth Independence's celebrations (10 to 20 September 2025
    x1.3). From the
    fortnight of Thursday 26 June 2025 a hypermarket opens in Lae (Morobe x1.35, the others unmoved; accepted by the
    owner as a shift). Port Moresby's riots of Wednesday 10 January 2024 shut and looted the capital's stores: the
    fortnight of Thursday 11 January 2024 x0.5 in the capital, x0.8 in Morobe (unlabelled, history only). 3% noise per
    province and fortnight; +6% a year. 108 fortnights (to the fortnight of Thursday 19 February 2026): three years
    read (78 fortnights), from Thursday 9 January 2025 evaluated (30); categories "christmas", "payday_moved",
    "school_fees", "easter", "independence", "holiday", "coffee_season", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PG")
    provinces = _unequal(rng, list(_PG_DAILY))
    keys = _pay_thursdays(_PG_FIRST_PAYDAY, 109)
    paid = [_payday_paid(t, cal) for t in keys]
    series, cats, incidents = [], {}, set()
    for k, (first, nxt) in enumerate(pairwise(keys)):
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=j) for j in range(14)]
        values = []
        for p in provinces:
            f = sum(_pg_day(d, p, cal, paid) for d in days) * 1.06 ** (k / 26.09)
            f *= 1.35 if p == "morobe" and first >= _LAE_HYPERMARKET else 1.0
            if first == _BLACK_WEDNESDAY:
                f *= {"ncd": 0.5, "morobe": 0.8}.get(p, 1.0)
            values.append(_noisy(rng, _PG_DAILY[p] * f, 0.03))
        series.append((at, values))
        if first == _BLACK_WEDNESDAY:
            incidents.add(at)
        names = [cal.name(d) or "" for d in days]
        if any(d.month == 12 and 10 <= d.day <= 24 for d in days) or paid[k + 1] < nxt:
            cats[at] = "payday_moved" if paid[k + 1] < nxt else "christmas"
        elif any(date(d.year, *_SCHOOL_FEES[0]) <= d <= date(d.year, *_SCHOOL_FEES[1]) for d in days):
            cats[at] = "school_fees"
        elif any("Good Friday" in n for n in names):
            cats[at] = "easter"
        elif any(_FIFTY_YEARS[0] <= d <= _FIFTY_YEARS[1] for d in days) or any("Independence" in n for n in names):
            cats[at] = "independence"
        elif any(names):
            cats[at] = "holiday"
        elif any(date(d.year, *_COFFEE_SEASON[0]) <= d <= date(d.year, *_COFFEE_SEASON[1]) for d in days):
            cats[at] = "coffee_season"
    shift = datetime(_LAE_HYPERMARKET.year, _LAE_HYPERMARKET.month, _LAE_HYPERMARKET.day)
    for k in (1, 2):  # the next two fortnights (inside the coffee season)
        after = shift + timedelta(days=14 * k)
        if cats.get(after, "coffee_season") == "coffee_season":
            cats[after] = "after_shift"
    return Estate("stores_pg_fortnightly", "day", series, 78, cal, cats, [shift], incidents=incidents)


# an Albanian ice-cream maker's cases delivered per week by route, in an ordinary May week of 2022: Pogradec's lake
# shore some thirty times smaller than Tirana over a year
_ICE_WEEK = {"tirana": 9_000.0, "durres": 4_200.0, "vlore": 2_600.0, "sarande": 1_300.0, "shkoder": 1_500.0,
             "pogradec": 250.0}
# by month against May (read at mid-month): the city's summer, the beaches' far stronger one, and the routes whose
# kiosks shut for the winter (Sarandë's seafront, Pogradec's lake shore: a shop or two open, a few cases a week)
_ICE_SEASONS = {
    "city": [0.35, 0.4, 0.55, 0.75, 1.0, 1.35, 1.6, 1.5, 1.1, 0.7, 0.45, 0.4],
    "coast": [0.2, 0.22, 0.35, 0.6, 1.0, 1.9, 3.0, 3.2, 1.3, 0.45, 0.2, 0.22],
    "resort": [0.02, 0.02, 0.03, 0.3, 1.0, 2.4, 3.8, 4.0, 1.5, 0.3, 0.03, 0.02],
}
_ICE_KIND = {"tirana": "city", "shkoder": "city", "durres": "coast", "vlore": "coast", "sarande": "resort",
             "pogradec": "resort"}
_ICE_HEAT_WAVES = [(date(2022, 6, 19), date(2022, 6, 26)), (date(2023, 7, 16), date(2023, 7, 29)),
                   (date(2024, 7, 14), date(2024, 7, 27)), (date(2025, 7, 20), date(2025, 8, 2))]  # x1.3 (no calendar)
_JUNE_RAINS = (date(2025, 6, 8), date(2025, 6, 14))  # a week of storms on the coast (x0.6 there; no calendar)
_DIASPORA_AUGUST = ((7, 27), (8, 23))  # the emigrants home for August: the coast and the resorts x1.15 (no calendar)
_FIER_KIOSKS = date(2025, 5, 4)  # Durrës's route takes over a distributor's Fier kiosks (a Sunday): Durrës x1.4
_VLORE_INVOICES = date(2023, 9, 10)  # the week whose Vlorë invoices were loaded in part


def _ice_season(d: date, route: str) -> float:
    """A route's month, interpolated between mid-months (a season's opening and closing are gradual)."""
    months = _ICE_SEASONS[_ICE_KIND[route]]
    mid = date(d.year, d.month, 15)
    other = date(d.year + (d.month == 12), d.month % 12 + 1, 15) if d >= mid else \
        date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 15)
    w = abs((d - mid).days) / abs((other - mid).days)
    return months[mid.month - 1] * (1 - w) + months[other.month - 1] * w


def _ice_day(d: date, route: str, cal: HolidayCalendar) -> float:
    """A route's share of an ordinary May week on `d`: a seventh of it by the season, the week's shape (weekend
    strolls), the holidays, the heat waves, the June storms and August's emigrants."""
    f = _ice_season(d, route) / 7 * [0.85, 0.85, 0.9, 0.95, 1.05, 1.25, 1.15][d.weekday()]
    name = cal.name(d) or ""
    if name.startswith(("New Year", "Christmas")):
        f *= 0.7
    elif name:
        f *= 1.2  # the holidays' evening walks (xhiro) and family visits: ice cream on the boulevard
    if any(a <= d <= b for a, b in _ICE_HEAT_WAVES):
        f *= 1.3
    if _ICE_KIND[route] == "coast" and _JUNE_RAINS[0] <= d <= _JUNE_RAINS[1]:
        f *= 0.6
    if _ICE_KIND[route] != "city" and date(d.year, *_DIASPORA_AUGUST[0]) <= d <= date(d.year, *_DIASPORA_AUGUST[1]):
        f *= 1.15
    return f


def icecream_al_weekly(seed: int) -> Estate:
    """Blind (twenty-seventh round): an Albanian ice-cream maker's cases delivered per week by route (six: Tirana 9,000
    in an ordinary May week of 2022, Durrës 4,200, Vlorë 2,600, Shkodër 1,500, Sarandë 1,300 and Pogradec 250, some
    thirty times smaller than Tirana over a year; in an order set by the seed). The delivery week runs Sunday to
    Saturday, keyed on its Sunday (2023 holds 53 of them, 1 January to 31 December). On Albania's holidays (the
    `holidays` package's AL: Summer Day, Nowruz, both Easters, both Bajrams, Independence and Liberation, with their
    observed Mondays; New Year's and Christmas x0.7, the others x1.2: the evening walks and family visits). A week is
    the sum of its days: the season (`_ICE_SEASONS`, interpolated between mid-months: the cities x0.35 in January to
    x1.6 in July, Durrës's and Vlorë's beaches x0.2 to x3.2 in August, and the resort routes, Sarandë's seafront and
    Pogradec's lake shore, whose kiosks shut from November to March: x0.02, a shop or two), the week's shape (Saturday
    x1.25). In no calendar: heat waves (19 to 26 June 2022, 16 to 29 July 2023, 14 to 27 July 2024, 20 July to 2 August
    2025: x1.3); the emigrants home for August (27 July to 23 August: the coast and the resorts x1.15); a week of
    storms on the coast (8 to 14 June 2025: Durrës and Vlorë x0.6). From the week of Sunday 4 May 2025 Durrës's route
    takes over a distributor's Fier kiosks (Durrës x1.4, the others unmoved; accepted by the owner as a shift). The
    week of Sunday 10 September 2023 loaded Vlorë's invoices in part (x0.35 there; unlabelled, history only). 4% noise
    per route and week; +3% a year. From Sunday 2 January 2022 (216 weeks, to the week of Sunday 15 February 2026):
    three years read, from Sunday 29 December 2024 evaluated (60 weeks); categories "heat_wave", "storms", "diaspora",
    "holiday", "season_opening", "season_closing", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AL")
    routes = _unequal(rng, list(_ICE_WEEK))
    series = _weekly_sums(rng, date(2022, 1, 2), 216, routes, _ICE_WEEK, lambda d, r: _ice_day(d, r, cal),
                          growth=1.03, noise=0.04, step=("durres", _FIER_KIOSKS, 1.4),
                          loss=("vlore", _VLORE_INVOICES, 0.35))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_VLORE_INVOICES.year, _VLORE_INVOICES.month, _VLORE_INVOICES.day)}
    for at, _ in series:
        first = at.date()
        days = [first + timedelta(days=j) for j in range(7)]
        if any(a <= d <= b for a, b in _ICE_HEAT_WAVES for d in days):
            cats[at] = "heat_wave"
        elif any(_JUNE_RAINS[0] <= d <= _JUNE_RAINS[1] for d in days):
            cats[at] = "storms"
        elif any(date(d.year, *_DIASPORA_AUGUST[0]) <= d <= date(d.year, *_DIASPORA_AUGUST[1]) for d in days):
            cats[at] = "diaspora"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
        elif first.month == 4:
            cats[at] = "season_opening"  # the resort routes' kiosks reopen: x0.03 to x1.0 in six weeks
        elif first.month == 10:
            cats[at] = "season_closing"
    shift = datetime(_FIER_KIOSKS.year, _FIER_KIOSKS.month, _FIER_KIOSKS.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    return Estate("icecream_al_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Bolivian public hospital network's emergency arrivals registered at triage per local hour by hospital, at an
# ordinary Tuesday's busiest hour (11:00): Coroico's small Yungas hospital some thirty times smaller than La Paz's
_ER_PEAK = {"la_paz_general": 36.0, "el_alto_north": 26.0, "coroico": 1.2}
_ER_HOURS = [0.42, 0.36, 0.3, 0.26, 0.25, 0.3, 0.45, 0.7, 0.85, 0.95, 1.0, 1.0, 0.95, 0.9, 0.88, 0.85, 0.85, 0.88,
             0.9, 0.85, 0.75, 0.65, 0.55, 0.48]  # 00:00 to 23:00 local
_ER_WEEK = [1.12, 1.0, 0.98, 0.98, 1.0, 0.95, 0.9]  # Monday first: Monday's backlog from the weekend
_SATURDAY_NIGHT = 1.35  # Friday's and Saturday's nights (22:00-03:59): fights and road accidents
_HANDOVERS = (7, 19)  # the twelve-hour shifts change: triage registers x0.6 in the hour, its backlog x1.4 in the next
_COMADRES = (datetime(2026, 2, 12, 18), datetime(2026, 2, 13, 3))  # Jueves de Comadres' night (in no calendar)
_ER_CARNIVAL = (date(2026, 2, 14), date(2026, 2, 17))  # Saturday to Tuesday (Monday, Tuesday in BO's calendar)
_HAILSTORM = (datetime(2026, 2, 19, 15), datetime(2026, 2, 19, 17))  # local: a hailstorm floods La Paz (no calendar)
_TRAUMA_WING = datetime(2026, 2, 20, 8)  # local: El Alto's new trauma wing opens (a Friday): El Alto x1.3
_TRIAGE_OFFLINE = (datetime(2026, 1, 20, 2), datetime(2026, 1, 20, 5))  # local: La Paz's triage system offline


def _er_hour(local: datetime, hospital: str, cal: HolidayCalendar) -> float:
    """A hospital's triage registrations in a local hour against its ordinary Tuesday 11:00: the day's hours, the
    shift handovers, the week, the weekend's nights, the holidays, Comadres, Carnival and the hailstorm."""
    d, h = local.date(), local.hour
    f = _ER_HOURS[h] * _ER_WEEK[d.weekday()]
    if h in _HANDOVERS:
        f *= 0.6
    elif h - 1 in _HANDOVERS:
        f *= 1.4
    night_of = (local - timedelta(hours=4)).date()  # a night from 22:00 to 03:59 belongs to its evening's day
    if (h >= 22 or h < 4) and night_of.weekday() in (4, 5):
        f *= _SATURDAY_NIGHT
    if cal.name(d) and not _ER_CARNIVAL[0] <= d <= _ER_CARNIVAL[1]:
        f *= 0.9  # no work or school accidents; the day's drinking evens it
    if _COMADRES[0] <= local <= _COMADRES[1]:
        f *= 1.35
    if _ER_CARNIVAL[0] <= night_of <= _ER_CARNIVAL[1] or _ER_CARNIVAL[0] <= d <= _ER_CARNIVAL[1]:
        if hospital == "coroico":
            f *= 2.2  # paceños drive down to the Yungas for Carnival: the road's accidents, the town's revellers
        else:
            f *= 1.5 if h >= 20 or h < 6 else 1.25  # water-balloon fights by day, alcohol at night
    if hospital != "coroico" and _HAILSTORM[0] <= local <= _HAILSTORM[1]:
        f *= 1.55
    return f


def emergencies_lapaz_hourly(seed: int) -> Estate:
    """Blind (twenty-eighth round): a Bolivian public hospital network's emergency arrivals registered at triage per
    local hour by hospital (three: La Paz's general hospital 36 at an ordinary Tuesday's 11:00, El Alto's north
    hospital 26 and Coroico's small Yungas hospital 1.2, some thirty times smaller than La Paz's: single digits and
    many empty hours there; in an order set by the seed), in America/La_Paz, four hours behind UTC all year (every
    point on the hour), on Bolivia's holidays (the `holidays` package's BO: the Plurinational State Foundation Day on
    Thursday 22 January 2026 x0.9; Carnival's Monday and Tuesday, 16 and 17 February). Every hour holds arrivals: the
    day's shape (`_ER_HOURS`, 04:00 x0.25 to 11:00's peak), Monday x1.12, Friday's and Saturday's nights (22:00 to
    03:59) x1.35; the twelve-hour shifts change at 07:00 and 19:00: triage registers x0.6 in the handover hour and
    x1.4 in the next (the backlog). In no calendar: Jueves de Comadres (Thursday 12 February 18:00 to Friday 03:59,
    x1.35); Carnival from Saturday 14 to Tuesday 17 February (their nights too): the cities x1.25 by day and x1.5 from
    20:00 to 05:59, Coroico x2.2 (paceños drive down to the Yungas); a hailstorm floods La Paz on Thursday 19 February
    15:00 to 17:59 (the city hospitals x1.55). From Friday 20 February 08:00 El Alto's new trauma wing opens (El Alto
    x1.3, the others unmoved; accepted by the owner as a shift: its first partition the 08:00 hour). La Paz's triage
    system was offline on Tuesday 20 January 02:00 to 05:59 (x0.1 there; unlabelled, history only). Poisson counts
    with 6% extra noise per hour and hospital. From Monday 5 January 2026 (49 days of hours): five weeks read, Monday
    9 February 00:00 to Sunday 22 February 23:00 evaluated; categories "comadres", "carnival", "hailstorm",
    "handover" (the handover hours and the hours after them), "after_shift"."""
    rng = random.Random(seed)
    zone = "America/La_Paz"
    cal = HolidayCalendar(country="BO")
    tz = ZoneInfo(zone)
    hospitals = _unequal(rng, list(_ER_PEAK))
    start, first = date(2026, 1, 5), date(2026, 2, 9)
    series, cats, incidents = [], {}, set()
    for k in range(49):
        for h in range(24):
            d = start + timedelta(days=k)
            local = datetime(d.year, d.month, d.day, h)
            values = []
            for hosp in hospitals:
                f = _er_hour(local, hosp, cal)
                f *= 1.3 if hosp == "el_alto_north" and local >= _TRAUMA_WING else 1.0
                if hosp == "la_paz_general" and _TRIAGE_OFFLINE[0] <= local <= _TRIAGE_OFFLINE[1]:
                    f *= 0.1
                values.append(_poisson(rng, _ER_PEAK[hosp] * f * math.exp(rng.gauss(0, 0.06))))
            at = _utc_hour(local, tz)
            series.append((at, values))
            night_of = (local - timedelta(hours=4)).date()
            if _TRIAGE_OFFLINE[0] <= local <= _TRIAGE_OFFLINE[1]:
                incidents.add(at)
            if _ER_CARNIVAL[0] <= night_of <= _ER_CARNIVAL[1] or _ER_CARNIVAL[0] <= d <= _ER_CARNIVAL[1]:
                cats[at] = "carnival"
            elif _COMADRES[0] <= local <= _COMADRES[1]:
                cats[at] = "comadres"
            elif _HAILSTORM[0] <= local <= _HAILSTORM[1]:
                cats[at] = "hailstorm"
            elif cal.name(d):
                cats[at] = "holiday"
            elif h in _HANDOVERS or h - 1 in _HANDOVERS:
                cats[at] = "handover"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_TRAUMA_WING, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 25]:  # its next day's hours
        if cats.get(at, "handover") == "handover":
            cats[at] = "after_shift"
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("emergencies_lapaz_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Luxembourg hairdressing chain's appointments per day by town, on an ordinary Thursday of early 2023: Vianden's
# one salon some thirty times smaller than Luxembourg City's
_SALON_DAILY = {"luxembourg_city": 900.0, "esch_alzette": 520.0, "differdange": 260.0, "ettelbruck": 210.0,
                "mersch": 130.0, "vianden": 30.0}
# Monday first: the salons shut on Mondays and Sundays (the city's shopping-centre salons open: a few rows)
_SALON_WEEK = [0.85, 0.9, 1.0, 1.2, 1.45]  # Tuesday to Saturday
_CITY_MALL = (0.25, 0.12)  # Monday's and Sunday's share of the city's ordinary Thursday (shopping centres)
_SMALL_TOWN_MONDAY = 0.04  # a barber or two open on Mondays in the towns
_SALON_SUMMER = ((7, 15), (9, 14), 0.85)  # the school summer holidays: families away (no calendar)
_BUILDERS_LEAVE = ((7, 26), (8, 18), 0.8)  # the construction trade's collective leave: the south's towns emptier
_SOUTH = {"esch_alzette", "differdange"}
_SALON_CLOSED_AUGUST = {"vianden", "mersch"}  # the rural salons shut two weeks mid-August (x0.1: one chair open)
_COMMUNION_SATURDAY = 1.45  # the Saturday after Easter week's Saturday: first communions' families (no calendar)
_MERSCH_MOVE = date(2024, 9, 3)  # Ettelbruck's salon moves to Mersch's new shopping centre (a Tuesday)
_BOOKING_OUTAGE = date(2023, 10, 14)  # the booking platform down most of a Saturday (walk-ins not recorded)


def _salon_day(d: date, town: str, cal: HolidayCalendar) -> float:
    """A town's appointments on `d` against its ordinary Thursday: the salons' week (shut on Sundays and Mondays but
    for the city's shopping centres), the holidays and their eves, Christmas and New Year's Eve, first communions,
    the summer, the builders' leave, the rural salons' August closure and the school year's start."""
    wd = d.weekday()
    if wd in (0, 6):
        f = _CITY_MALL[wd == 6] if town == "luxembourg_city" else (_SMALL_TOWN_MONDAY if wd == 0 else 0.0)
    else:
        f = _SALON_WEEK[wd - 1]
    if cal.name(d):
        return 0.1 if town == "luxembourg_city" else 0.0  # the shopping-centre salons' few chairs
    if cal.name(d + timedelta(days=1)) and wd not in (0, 6):
        f *= 1.25  # the eve of a holiday: the week's appointments pulled into it
    if d.month == 12 and 15 <= d.day <= 24 or d.month == 12 and 27 <= d.day <= 31:
        f *= 1.5 if d.day <= 24 else 1.3
    if d == _easter(d.year) + timedelta(days=6):
        f *= _COMMUNION_SATURDAY
    if date(d.year, *_SALON_SUMMER[0]) <= d <= date(d.year, *_SALON_SUMMER[1]):
        f *= _SALON_SUMMER[2]
    if town in _SOUTH and date(d.year, *_BUILDERS_LEAVE[0]) <= d <= date(d.year, *_BUILDERS_LEAVE[1]):
        f *= _BUILDERS_LEAVE[2]
    if town in _SALON_CLOSED_AUGUST and date(d.year, 8, 5) <= d <= date(d.year, 8, 18):
        f *= 0.1
    if date(d.year, 9, 8) <= d <= date(d.year, 9, 14):
        f *= 1.2  # the week before school starts (15 September): the children's cuts
    return f


def hairdressers_lu(seed: int) -> Estate:
    """Blind (twenty-eighth round): a Luxembourg hairdressing chain's appointments per day by town (six: Luxembourg
    City 900 on an ordinary Thursday of early 2023, Esch-sur-Alzette 520, Differdange 260, Ettelbruck 210, Mersch 130
    and Vianden's one salon 30, some thirty times smaller than the city; in an order set by the seed), on Luxembourg's
    holidays (the `holidays` package's LU: every salon shut, the city's shopping-centre salons x0.1; the working day
    before a holiday x1.25). The salons open Tuesday to Saturday (`_SALON_WEEK`: Saturday x1.45) and shut on Mondays
    and Sundays: the city's shopping-centre salons open (Monday x0.25, Sunday x0.12), a barber or two in the towns on
    Mondays (x0.04: single digits, Vianden's often none), nothing in the towns on Sundays. In no calendar: Christmas
    (15 to 24 December x1.5) and New Year's Eve (27 to 31 December x1.3); the first communions' Saturday (Easter
    Sunday + 6 days, x1.45); the school summer holidays (15 July to 14 September x0.85); the construction trade's
    collective leave (26 July to 18 August: Esch and Differdange x0.8); the rural salons (Mersch, Vianden) shut 5 to
    18 August (x0.1); the week before school starts (8 to 14 September x1.2). 29 February 2024, a leap day, is an
    ordinary Thursday. From Tuesday 3 September 2024 the Ettelbruck salon moves to Mersch's new shopping centre
    (Ettelbruck x0.55, Mersch gains its customers, x1 + 0.45 x 210/130: the total about unmoved, the two towns' shares
    swapped for good; accepted by the owner as a shift). The booking platform failed most of Saturday 14 October 2023
    (x0.3 everywhere; unlabelled, history only). Poisson counts with 4% extra noise per town; +2% a year. From Monday
    2 January 2023 (731 days, to Wednesday 1 January 2025): from Tuesday 6 February 2024 evaluated; categories
    "closed_day" (Sundays and Mondays), "holiday", "holiday_eve", "christmas", "first_communion", "summer",
    "back_to_school", "leap_day", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="LU")
    towns = _unequal(rng, list(_SALON_DAILY))
    moved = 0.45 * _SALON_DAILY["ettelbruck"] / _SALON_DAILY["mersch"]
    start, n = date(2023, 1, 2), 731
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.3 if d == _BOOKING_OUTAGE else 1.0) * 1.02 ** (i / 365.25)
        values = []
        for t in towns:
            f = _salon_day(d, t, cal) * lift
            if d >= _MERSCH_MOVE:
                f *= {"ettelbruck": 0.55, "mersch": 1 + moved}.get(t, 1.0)
            values.append(_poisson(rng, _SALON_DAILY[t] * f * math.exp(rng.gauss(0, 0.04))) if f else 0.0)
        series.append((at, values))
        if d == _BOOKING_OUTAGE:
            incidents.add(at)
        if cal.name(d):
            cats[at] = "holiday"
        elif d.weekday() in (0, 6):
            cats[at] = "closed_day"
        elif cal.name(d + timedelta(days=1)):
            cats[at] = "holiday_eve"
        elif d.month == 12 and (15 <= d.day <= 24 or 27 <= d.day <= 31):
            cats[at] = "christmas"
        elif d == _easter(d.year) + timedelta(days=6):
            cats[at] = "first_communion"
        elif date(d.year, 9, 8) <= d <= date(d.year, 9, 14):
            cats[at] = "back_to_school"
        elif date(d.year, *_SALON_SUMMER[0]) <= d <= date(d.year, *_SALON_SUMMER[1]):
            cats[at] = "summer"
        elif d.month == 2 and d.day == 29:
            cats[at] = "leap_day"
    shift = datetime(_MERSCH_MOVE.year, _MERSCH_MOVE.month, _MERSCH_MOVE.day)
    for k in range(1, 29):  # the four weeks after the move (its open days not of another kind: summer, school start)
        after = shift + timedelta(days=k)
        if after not in cats:
            cats[after] = "after_shift"
    return Estate("hairdressers_lu", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Tunisian water utility's metered consumption per reading cycle by district, in thousand cubic metres over an
# ordinary spring cycle of 2021: Tozeur's oasis some thirty times smaller than Grand Tunis
_WATER_CYCLE = {"grand_tunis": 5_400.0, "sfax": 2_100.0, "sousse": 1_700.0, "nabeul": 1_500.0, "monastir": 1_150.0,
                "bizerte": 1_000.0, "kairouan": 800.0, "gabes": 700.0, "tozeur": 180.0}
_FIRST_READING = date(2021, 1, 4)  # the meters are read every thirty days: a cycle keyed on its first day
_WATER_MONTHS = {  # by month against May (read at mid-month): the summer's heat, the coast's tourists, the oasis
    "inland": [0.85, 0.85, 0.9, 0.95, 1.0, 1.15, 1.3, 1.3, 1.15, 1.0, 0.9, 0.85],
    "resort": [0.8, 0.8, 0.85, 0.95, 1.0, 1.3, 1.65, 1.7, 1.3, 1.0, 0.85, 0.8],
    "oasis": [1.15, 1.15, 1.1, 1.05, 1.0, 1.2, 1.35, 1.35, 1.2, 1.05, 1.1, 1.2],  # its winter tourists, its summer
}
_WATER_KIND = {"sousse": "resort", "nabeul": "resort", "monastir": "resort", "tozeur": "oasis"}
_DIASPORA_HOMES = {"sfax", "kairouan", "gabes", "tozeur"}  # emigrants home from Europe, July and August x1.1
_RAMADAN_WATER = 1.05  # Ramadan's days: evening cooking and washing (its dates in no calendar, Eid's in TN's)
_ADHA_WATER = 1.25  # the sacrifice's three days: washing the courtyards
_RATIONING = [(date(2023, 3, 31), date(2023, 9, 30), 0.87), (date(2025, 6, 15), date(2025, 9, 15), 0.9)]  # night cuts
_SFAX_DESALINATION = date(2024, 9, 15)  # the cycle from which Sfax's new desalination plant serves new subscribers
_READERS_STRIKE = date(2022, 1, 29)  # the cycle whose Grand Tunis meters were read in part (the readers' strike)


def _water_day(d: date, district: str, cal: HolidayCalendar, ramadan: set[date]) -> float:
    """A district's thirtieth of an ordinary May cycle on `d`: the month (interpolated between mid-months), the
    emigrants' summer, Ramadan, the sacrifice and the rationing."""
    months = _WATER_MONTHS[_WATER_KIND.get(district, "inland")]
    mid = date(d.year, d.month, 15)
    other = date(d.year + (d.month == 12), d.month % 12 + 1, 15) if d >= mid else \
        date(d.year - (d.month == 1), (d.month - 2) % 12 + 1, 15)
    w = abs((d - mid).days) / abs((other - mid).days)
    f = (months[mid.month - 1] * (1 - w) + months[other.month - 1] * w) / 30
    if district in _DIASPORA_HOMES and d.month in (7, 8):
        f *= 1.1
    if d in ramadan:
        f *= _RAMADAN_WATER
    if "Eid al-Adha" in (cal.name(d) or ""):
        f *= _ADHA_WATER
    return f * next((cut for a, b, cut in _RATIONING if a <= d <= b), 1.0)


def water_tn_thirtyday(seed: int) -> Estate:
    """Blind (twenty-eighth round): a Tunisian water utility's metered consumption per reading cycle by district, in
    thousand cubic metres (nine: Grand Tunis 5,400 over an ordinary spring cycle of 2021, Sfax 2,100, Sousse 1,700,
    Nabeul 1,500, Monastir 1,150, Bizerte 1,000, Kairouan 800, Gabès 700 and Tozeur's oasis 180, some thirty times
    smaller than Grand Tunis; in an order set by the seed). The meters are read every thirty days: a partition is a
    thirty-day cycle keyed on its first day (from Monday 4 January 2021; twelve or thirteen a year, drifting through
    the months and the weekdays). On Tunisia's holidays (the `holidays` package's TN: the Eids by estimate). A cycle
    is the sum of its days: the month (`_WATER_MONTHS`, interpolated between mid-months: inland x0.85 in winter to
    x1.3 in July and August; the resort coast, Sousse, Nabeul and Monastir, to x1.7 in August; Tozeur's oasis with its
    winter tourists, x1.15 in January and x1.35 in July). Ramadan's days x1.05 (in no calendar: the 29 days before
    Eid al-Fitr's first day in TN's calendar), Eid al-Adha's days x1.25, the emigrants home in July and August (Sfax,
    Kairouan, Gabès, Tozeur x1.1). In no calendar: the drought's night cuts (31 March to 30 September 2023 x0.87, 15
    June to 15 September 2025 x0.9). From the cycle of Sunday 15 September 2024 Sfax's new desalination plant serves
    new subscribers (Sfax x1.25, the others unmoved; accepted by the owner as a shift). The cycle of Saturday 29
    January 2022 read Grand Tunis's meters in part (the readers' strike: x0.45 there;
    unlabelled, history only). 2.5% noise per district and cycle; +1.5% a year. 62 cycles (to the cycle of Thursday 8
    January 2026): 37 read (three years), from the cycle of Friday 19 January 2024 evaluated (25); categories
    "ramadan", "eid_al_adha", "summer", "rationing", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TN")
    districts = _unequal(rng, list(_WATER_CYCLE))
    keys = [_FIRST_READING + timedelta(days=30 * k) for k in range(62)]
    days_all = [keys[0] + timedelta(days=j) for j in range(30 * len(keys))]
    eid_firsts = [d for d in days_all if (cal.name(d) or "").startswith("Eid al-Fitr")
                  and not (cal.name(d - timedelta(days=1)) or "").startswith("Eid al-Fitr")]
    ramadan = {e - timedelta(days=j) for e in eid_firsts for j in range(1, 30)}
    shift_key = _SFAX_DESALINATION
    series, cats, incidents = [], {}, set()
    for k, first in enumerate(keys):
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=j) for j in range(30)]
        values = []
        for dist in districts:
            f = sum(_water_day(d, dist, cal, ramadan) for d in days) * 1.015 ** (k / 12.17)
            f *= 1.25 if dist == "sfax" and first >= shift_key else 1.0
            f *= 0.45 if dist == "grand_tunis" and first == _READERS_STRIKE else 1.0
            values.append(_noisy(rng, _WATER_CYCLE[dist] * f, 0.025))
        series.append((at, values))
        if first == _READERS_STRIKE:
            incidents.add(at)
        if any(a <= d <= b for a, b, _ in _RATIONING for d in days):
            cats[at] = "rationing"
        elif sum(d in ramadan for d in days) >= 10:
            cats[at] = "ramadan"
        elif any("Eid al-Adha" in (cal.name(d) or "") for d in days):
            cats[at] = "eid_al_adha"
        elif any(d.month in (7, 8) for d in days):
            cats[at] = "summer"
    shift = datetime(shift_key.year, shift_key.month, shift_key.day)
    for j in (1, 2):  # the next two cycles
        after = shift + timedelta(days=30 * j)
        cats.setdefault(after, "after_shift")
    return Estate("water_tn_thirtyday", "day", series, 37, cal, cats, [shift], incidents=incidents)


# a Mozambican hotel and lodge group's room nights per week by area, in an ordinary May week of 2022: Ponta do Ouro's
# dive lodges some twenty-five times smaller than Maputo's city hotels over a year
_LODGE_WEEK = {"maputo_city": 5_000.0, "inhambane": 1_400.0, "ponta_do_ouro": 150.0}
# South Africa's school holidays (in no calendar of Mozambique's): the beaches' guests drive up from Gauteng
_SA_SCHOOL_HOLIDAYS = [
    (date(2021, 12, 16), date(2022, 1, 11), "summer"), (date(2022, 6, 25), date(2022, 7, 18), "winter"),
    (date(2022, 9, 24), date(2022, 10, 3), "spring"), (date(2022, 12, 8), date(2023, 1, 10), "summer"),
    (date(2023, 3, 24), date(2023, 4, 11), "autumn"), (date(2023, 6, 24), date(2023, 7, 17), "winter"),
    (date(2023, 9, 30), date(2023, 10, 9), "spring"), (date(2023, 12, 7), date(2024, 1, 16), "summer"),
    (date(2024, 3, 21), date(2024, 4, 2), "autumn"), (date(2024, 6, 15), date(2024, 7, 8), "winter"),
    (date(2024, 9, 21), date(2024, 9, 30), "spring"), (date(2024, 12, 12), date(2025, 1, 14), "summer"),
    (date(2025, 3, 29), date(2025, 4, 7), "autumn"), (date(2025, 6, 27), date(2025, 7, 21), "winter"),
    (date(2025, 10, 4), date(2025, 10, 12), "spring"), (date(2025, 12, 11), date(2026, 1, 13), "summer"),
    (date(2026, 3, 28), date(2026, 4, 7), "autumn"),
]
_HOLIDAY_LIFT = {"summer": (0.75, 2.4, 3.6), "winter": (1.0, 1.35, 1.6), "spring": (1.0, 1.4, 1.8),
                 "autumn": (0.95, 1.5, 2.2)}  # (Maputo's city hotels, Inhambane, Ponta do Ouro)
_CYCLONE_WEEKS = {date(2023, 2, 24): {"inhambane": 0.4, "maputo_city": 0.9},  # Freddy's first landfall
                  date(2024, 3, 12): {"inhambane": 0.5, "ponta_do_ouro": 0.7},  # Filipo
                  date(2026, 2, 17): {"inhambane": 0.45}}  # a February cyclone on Inhambane's coast
_UNREST = (date(2024, 10, 21), date(2025, 1, 18))  # the post-election protests: roads blocked, the border shut
_VILANKULO_FLIGHTS = date(2025, 8, 2)  # a low-cost airline's first Johannesburg-Vilankulo week: Inhambane x1.25
_CHANNEL_MANAGER = date(2023, 8, 12)  # the week whose Inhambane bookings the channel manager never sent


def _lodge_day(d: date, area: str, cal: HolidayCalendar) -> float:
    """An area's seventh of an ordinary May week on `d`: South Africa's school holidays and Easter, Mozambique's
    long weekends, December's business lull, the cyclones and the post-election unrest."""
    col = list(_LODGE_WEEK).index(area)
    f = 1 / 7
    holiday = next((kind for a, b, kind in _SA_SCHOOL_HOLIDAYS if a <= d <= b), None)
    if holiday:
        f *= _HOLIDAY_LIFT[holiday][col]
    easter = _easter(d.year)
    if easter - timedelta(days=2) <= d <= easter + timedelta(days=1):
        f *= (0.9, 1.4, 1.8)[col]  # South Africa's Easter weekend (Good Friday to Family Day)
    if cal.name(d):
        f *= (0.85, 1.2, 1.25)[col]  # Mozambicans' long weekends at the beach, no business travel
    if area == "maputo_city" and d.month == 12 and d.day >= 15:
        f *= 0.8
    for hit, hits in _CYCLONE_WEEKS.items():
        if 0 <= (d - hit).days < 6:
            f *= hits.get(area, 1.0)
    if _UNREST[0] <= d <= _UNREST[1]:
        f *= (0.7, 0.55, 0.4)[col]
    return f


def lodges_mz_weekly(seed: int) -> Estate:
    """Blind (twenty-eighth round): a Mozambican hotel and lodge group's room nights per week by area (three: Maputo's
    city hotels 5,000 in an ordinary May week of 2022, Inhambane's beach lodges at Tofo and Vilankulo 1,400, and Ponta
    do Ouro's dive lodges 150, some twenty-five times smaller than Maputo over a year; in an order set by the seed).
    The lodges' changeover day is Saturday: a week runs Saturday to Friday, keyed on its Saturday. On Mozambique's
    holidays (the `holidays` package's MZ: the long weekends' days Maputo x0.85, the beaches x1.2-1.25). A week is
    the sum of its days. The season is the southern hemisphere's summer and South Africa's school holidays (in no
    calendar of the owner's): December to mid-January Inhambane x2.4 and Ponta do Ouro x3.6 (Maputo's business
    hotels x0.75, x0.8 more from 15 December), the autumn break around Easter x1.5 / x2.2, the winter break x1.35 /
    x1.6, the spring break x1.4 / x1.8; South Africa's Easter weekend (Good Friday to Easter Monday) x1.4 / x1.8
    more. In no calendar: cyclones (Freddy, week of 24 February 2023: Inhambane x0.4; Filipo, 12 March 2024: Inhambane
    x0.5, Ponta x0.7; a cyclone on Inhambane's coast from 17 February 2026, x0.45). The post-election unrest of 21
    October 2024 to 18 January 2025 (roads blocked, the border shut: Maputo x0.7, Inhambane x0.55, Ponta x0.4) is
    left in the history as incidents (unlabelled), with the week of Saturday 12 August 2023 whose Inhambane bookings
    the channel manager never sent (x0.3 there). From the week of Saturday 2 August 2025 a low-cost airline flies
    Johannesburg to Vilankulo (Inhambane x1.25, the others unmoved; accepted by the owner as a shift). 5% noise per
    area and week; +4% a year. From Saturday 7 May 2022 (208 weeks, to the week of Saturday 25 April 2026): three
    years read, from Saturday 3 May 2025 evaluated (52 weeks); categories "sa_summer_holidays", "sa_winter_holidays",
    "sa_spring_holidays", "easter", "cyclone", "holiday", "after_shift" (and "sa_autumn_holidays" in the history)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MZ")
    areas = _unequal(rng, list(_LODGE_WEEK))
    series = _weekly_sums(rng, date(2022, 5, 7), 208, areas, _LODGE_WEEK, lambda d, a: _lodge_day(d, a, cal),
                          growth=1.04, noise=0.05, step=("inhambane", _VILANKULO_FLIGHTS, 1.25),
                          loss=("inhambane", _CHANNEL_MANAGER, 0.3))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_CHANNEL_MANAGER.year, _CHANNEL_MANAGER.month, _CHANNEL_MANAGER.day)}
    for at, _ in series:
        first = at.date()
        days = [first + timedelta(days=j) for j in range(7)]
        if any(_UNREST[0] <= d <= _UNREST[1] for d in days):
            incidents.add(at)
            continue
        kinds = [kind for d in days for a, b, kind in _SA_SCHOOL_HOLIDAYS if a <= d <= b]
        easter = _easter(first.year)
        if any(0 <= (d - hit).days < 6 for hit in _CYCLONE_WEEKS for d in days):
            cats[at] = "cyclone"
        elif any(easter - timedelta(days=2) <= d <= easter + timedelta(days=1) for d in days):
            cats[at] = "easter"
        elif kinds:
            cats[at] = f"sa_{kinds[0]}_holidays"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_VILANKULO_FLIGHTS.year, _VILANKULO_FLIGHTS.month, _VILANKULO_FLIGHTS.day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    return Estate("lodges_mz_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# The twenty-ninth round (issue 16): written blind (from the Estate dataclass, the generators' helpers and the
# bench's categories and faults, not the model's internals), never run on the model before the round's final
# run. Each has its own number of groups (four, five, ten, three)

# a Doha metro operator's gate entries per local hour by line, against the line's busiest hour of an ordinary Sunday
# (Qatar's week runs Sunday to Thursday, the weekend Friday and Saturday). The trains run 06:00-23:59 from Saturday to
# Thursday and 14:00-23:59 on Fridays: no rows outside these hours, no partition
_METRO_WORKDAY = {6: 0.35, 7: 0.85, 8: 0.75, 9: 0.45, 10: 0.4, 11: 0.42, 12: 0.5, 13: 0.6, 14: 0.75, 15: 0.85,
                  16: 0.9, 17: 1.0, 18: 0.95, 19: 0.85, 20: 0.75, 21: 0.65, 22: 0.5, 23: 0.3}
_METRO_SATURDAY = {6: 0.1, 7: 0.15, 8: 0.2, 9: 0.3, 10: 0.4, 11: 0.45, 12: 0.5, 13: 0.55, 14: 0.6, 15: 0.65,
                   16: 0.75, 17: 0.85, 18: 0.9, 19: 0.95, 20: 0.9, 21: 0.8, 22: 0.6, 23: 0.4}
_METRO_FRIDAY = {14: 0.55, 15: 0.7, 16: 0.85, 17: 0.95, 18: 1.0, 19: 1.05, 20: 1.0, 21: 0.9, 22: 0.7, 23: 0.45}
# an ordinary Sunday's entries at the busiest hour (17:00) by line: the Lusail tram some twenty-five times smaller
# than the Red line
_METRO_PEAK = {"red_line": 9_000.0, "gold_line": 3_800.0, "green_line": 3_000.0, "lusail_tram": 330.0}
_THURSDAY_NIGHT = 1.15  # Thursday from 18:00: the weekend's first evening (malls, the Corniche, Souq Waqif)
# the FIFA Arab Cup's matches in Doha (in no calendar), 1-18 December 2025: (day, line to the stadium, kick-off hour);
# fans ride in the three hours before kick-off and leave at full time (two hours after it); Lusail's also by tram
_ARAB_CUP = [
    (date(2025, 12, 1), "gold_line", 17), (date(2025, 12, 1), "red_line", 20),
    (date(2025, 12, 2), "green_line", 14), (date(2025, 12, 2), "red_line", 19),
    (date(2025, 12, 3), "gold_line", 17), (date(2025, 12, 3), "green_line", 20),
    (date(2025, 12, 4), "red_line", 17), (date(2025, 12, 4), "gold_line", 20),
    (date(2025, 12, 5), "green_line", 17), (date(2025, 12, 5), "red_line", 20),
    (date(2025, 12, 6), "gold_line", 14), (date(2025, 12, 6), "red_line", 19),
    (date(2025, 12, 7), "green_line", 17), (date(2025, 12, 7), "red_line", 20),
    (date(2025, 12, 8), "gold_line", 17), (date(2025, 12, 8), "green_line", 20),
    (date(2025, 12, 9), "red_line", 17), (date(2025, 12, 9), "gold_line", 20),
    (date(2025, 12, 11), "red_line", 14), (date(2025, 12, 11), "green_line", 17),
    (date(2025, 12, 12), "gold_line", 17), (date(2025, 12, 12), "red_line", 20),
    (date(2025, 12, 15), "red_line", 17), (date(2025, 12, 15), "green_line", 20),
    (date(2025, 12, 18), "red_line", 18),  # the final at Lusail on Qatar National Day
]
_LUSAIL_LINES = {"red_line"}  # Lusail stadium's matches: its fans by the Red line and the tram
_DOHA_RAIN = (datetime(2025, 12, 16, 6), datetime(2025, 12, 16, 10))  # local: a rare downpour floods the roads
_GOLD_INTERCHANGE = datetime(2025, 12, 14, 6)  # local: the Gold line's bus-rapid-transit interchange opens (Sunday)
_RED_SIGNALLING = (datetime(2025, 11, 18, 7), datetime(2025, 11, 18, 9))  # local: the Red line's signalling failure


def _metro_hours(d: date, cal: HolidayCalendar) -> dict[int, float]:
    """The day's open hours and their shape: Friday's afternoon service, Saturday's and a holiday's leisure day,
    a working day's two commuter peaks."""
    if d.weekday() == 4:
        return _METRO_FRIDAY
    if d.weekday() == 5 or cal.name(d):
        return _METRO_SATURDAY
    return _METRO_WORKDAY


def _metro_match(local: datetime, line: str) -> float:
    """A line's lift from the Arab Cup's fans in a local hour: arriving in the three hours before a kick-off on
    its line, leaving two and three hours after it (the tram with Lusail's)."""
    f = 1.0
    for day, served, kick in _ARAB_CUP:
        if day != local.date() or not (line == served or line == "lusail_tram" and served in _LUSAIL_LINES):
            continue
        if kick - 3 <= local.hour < kick:
            f *= 1.45 if line != "lusail_tram" else 2.2
        elif kick + 2 <= local.hour <= kick + 3:
            f *= 2.1 if line != "lusail_tram" else 3.5
    return f


def _in_match_window(local: datetime) -> bool:
    return any(day == local.date() and kick - 3 <= local.hour <= kick + 3 for day, _, kick in _ARAB_CUP)


def metro_doha_hourly(seed: int) -> Estate:
    """Blind (twenty-ninth round): a Doha metro operator's gate entries per local hour by line (four: the Red line
    9,000 at an ordinary Sunday's 17:00, the Gold line 3,800, the Green line 3,000 and the Lusail tram 330, some
    twenty-five times smaller than the Red line; in an order set by the seed), in Asia/Qatar, three hours ahead of UTC
    all year (every point on the hour), on Qatar's holidays (the `holidays` package's QA: Qatar National Day,
    Thursday 18 December 2025). Qatar's week runs Sunday to Thursday: the trains run 06:00-23:59 from Saturday to
    Thursday and 14:00-23:59 on Fridays, and a closed hour holds no rows (no partition). A working day's shape
    (`_METRO_WORKDAY`: 07:00's commuters x0.85, 17:00's peak), Saturday's and a holiday's leisure day
    (`_METRO_SATURDAY`, to x0.95 at 19:00), Friday's afternoon (`_METRO_FRIDAY`, to x1.05 at 19:00); Thursday from
    18:00 x1.15; the tram's weekend x1.4 (Lusail's boulevard and malls). In no calendar: the FIFA Arab Cup's matches
    (1 to 18 December 2025, `_ARAB_CUP`): the line to the stadium x1.45 in the three hours before kick-off and x2.1
    two and three hours after it (the tram x2.2 and x3.5 with Lusail's), the final at Lusail on National Day at 18:00;
    a rare downpour floods Doha's roads on Tuesday 16 December 06:00 to 10:59 (every line x1.35: drivers leave their
    cars). From Sunday 14 December 06:00 the Gold line's bus-rapid-transit interchange opens (the Gold line x1.25, the
    others unmoved; accepted by the owner as a shift: its first partition the 06:00 hour). The Red line's signalling
    failed on Tuesday 18 November 07:00 to 09:59 (x0.35 there; unlabelled, history only). Poisson counts with 5%
    extra noise per hour and line. From Sunday 2 November 2025 (49 days of open hours, to Saturday 20 December):
    five weeks read, from Sunday 7 December 06:00 evaluated; categories "match" (the hours from three before a
    kick-off to three after it), "national_day", "rain", "thursday_night", "friday", "after_shift"."""
    rng = random.Random(seed)
    zone = "Asia/Qatar"
    cal = HolidayCalendar(country="QA")
    tz = ZoneInfo(zone)
    lines = _unequal(rng, list(_METRO_PEAK))
    start, first = date(2025, 11, 2), date(2025, 12, 7)
    series, cats, incidents = [], {}, set()
    for k in range(49):
        d = start + timedelta(days=k)
        for h, shape in _metro_hours(d, cal).items():
            local = datetime(d.year, d.month, d.day, h)
            values = []
            for line in lines:
                f = shape * _metro_match(local, line)
                f *= _THURSDAY_NIGHT if d.weekday() == 3 and h >= 18 else 1.0
                f *= 1.4 if line == "lusail_tram" and d.weekday() in (4, 5) else 1.0
                f *= 1.35 if _DOHA_RAIN[0] <= local <= _DOHA_RAIN[1] else 1.0
                f *= 1.25 if line == "gold_line" and local >= _GOLD_INTERCHANGE else 1.0
                if line == "red_line" and _RED_SIGNALLING[0] <= local <= _RED_SIGNALLING[1]:
                    f *= 0.35
                values.append(_poisson(rng, _METRO_PEAK[line] * f * math.exp(rng.gauss(0, 0.05))))
            at = _utc_hour(local, tz)
            series.append((at, values))
            if _RED_SIGNALLING[0] <= local <= _RED_SIGNALLING[1]:
                incidents.add(at)
            if cal.name(d):
                cats[at] = "national_day"
            elif _in_match_window(local):
                cats[at] = "match"
            elif _DOHA_RAIN[0] <= local <= _DOHA_RAIN[1]:
                cats[at] = "rain"
            elif d.weekday() == 3 and h >= 18:
                cats[at] = "thursday_night"
            elif d.weekday() == 4:
                cats[at] = "friday"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_GOLD_INTERCHANGE, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:  # the rest of its open day and the next
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day, 6), tz)
    return Estate("metro_doha_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Cambodian ride-hailing app's rides per day by city, on an ordinary Thursday of March 2024: Kampot some
# twenty-nine times smaller than Phnom Penh
_RIDES_DAILY = {"phnom_penh": 52_000.0, "siem_reap": 9_000.0, "sihanoukville": 6_500.0, "battambang": 4_000.0,
                "kampot": 1_800.0}
_RIDES_WEEK = [0.95, 0.95, 0.97, 1.0, 1.12, 1.05, 0.9]  # Monday first: Friday's nights out
_RIDE_COAST = {"sihanoukville", "kampot"}  # Phnom Penh's weekend trippers (Saturday, Sunday x1.35)
_PROVINCES = {"battambang", "kampot", "siem_reap"}  # where the capital's workers' families live
# Siem Reap's tourists by month (Angkor's dry-season high, the rainy season's low; in no calendar), January first
_ANGKOR_SEASON = [1.45, 1.35, 1.2, 1.0, 0.85, 0.75, 0.75, 0.75, 0.75, 0.85, 1.15, 1.4]
# the Water Festival's boat races on the Tonlé Sap draw the provinces to the capital; in 2025 the races were called
# off (the three days off kept): the capital's holiday like any other
_WATER_FESTIVAL_RACES = {2024: True, 2025: False}
_CNY_KH = [date(2024, 2, 10), date(2025, 1, 29)]  # Chinese New Year (in no calendar): Sino-Khmer shops shut 3 days
_SIHANOUKVILLE_RIVAL = date(2025, 9, 1)  # a rival app leaves Sihanoukville (a Monday): its riders join
_PAYMENT_OUTAGE = date(2024, 11, 22)  # the app's payment gateway down most of a Friday (rides not recorded)


def _ride_day(d: date, city: str, cal: HolidayCalendar) -> float:
    """A city's rides on `d` against its ordinary Thursday: the week, the coast's weekends, Angkor's season, Khmer
    New Year and Pchum Ben (the capital empties to the provinces), the Water Festival, the other holidays and
    Chinese New Year."""
    f = _RIDES_WEEK[d.weekday()]
    if city in _RIDE_COAST and d.weekday() >= 5:
        f *= 1.35
    if city == "siem_reap":
        f *= _ANGKOR_SEASON[d.month - 1]
    name = cal.name(d) or ""
    soon = [cal.name(d + timedelta(days=j)) or "" for j in range(1, 4)]
    if "Khmer New Year" in name:
        f *= 0.35 if city == "phnom_penh" else 1.6 if city == "siem_reap" else 1.3  # Angkor Sankranta's crowds
    elif "Pchum Ben" in name:
        f *= 0.45 if city == "phnom_penh" else 1.25 if city in _PROVINCES else 1.0
    elif "Water Festival" in name:
        races = _WATER_FESTIVAL_RACES.get(d.year, True)
        f *= (1.45 if races else 0.85) if city == "phnom_penh" else 0.8 if races else 1.0
    elif name:
        f *= 0.85 if city == "phnom_penh" else 1.05
    elif city == "phnom_penh" and any("Khmer New Year" in s or "Pchum Ben" in s for s in soon):
        f *= 1.2  # rides to the taxi stands and the markets before the capital leaves
    for cny in _CNY_KH:
        if d == cny - timedelta(days=1) and city == "phnom_penh":
            f *= 1.15
        elif 0 <= (d - cny).days < 3 and city in ("phnom_penh", "sihanoukville"):
            f *= 0.85
    return f


def rides_kh(seed: int) -> Estate:
    """Blind (twenty-ninth round): a Cambodian ride-hailing app's rides (tuk-tuks, remorks and cars) per day by city
    (five: Phnom Penh 52,000 on an ordinary Thursday of March 2024, Siem Reap 9,000, Sihanoukville 6,500, Battambang
    4,000 and Kampot 1,800, some twenty-nine times smaller than Phnom Penh; in an order set by the seed), on Cambodia's
    holidays (the `holidays` package's KH). Every day holds rides (`_RIDES_WEEK`: Friday x1.12, Sunday x0.9); the
    coast's weekends x1.35 (Sihanoukville, Kampot: the capital's trippers). Khmer New Year's three days in April: Phnom
    Penh x0.35 (its workers home in the provinces), Siem Reap x1.6 (Angkor Sankranta's crowds), the other cities x1.3;
    Pchum Ben's three days: Phnom Penh x0.45, the provinces (Siem Reap, Battambang, Kampot) x1.25; the three days
    before either, Phnom Penh x1.2 (to the taxi stands and markets). The Water Festival's three days: the boat
    races in 2024 (Phnom Penh x1.45, the others x0.8), called off in 2025 with the days off kept (Phnom Penh x0.85,
    the others unmoved); another holiday Phnom Penh x0.85 and the others x1.05. In no calendar: Angkor's tourist
    season (`_ANGKOR_SEASON`: Siem Reap x1.45 in January, x0.75 in the rains), Chinese New Year (the eve Phnom Penh
    x1.15, its three days Phnom Penh and Sihanoukville x0.85). From Monday 1 September 2025 a rival app leaves
    Sihanoukville (Sihanoukville x1.35, the others unmoved; accepted by the owner as a shift). The app's payment
    gateway failed most of Friday 22 November 2024 (x0.4 everywhere; unlabelled, history only). Poisson counts with
    4% extra noise per city; +12% a year. From Monday 4 March 2024 (660 days, to Tuesday 23 December 2025): from
    Tuesday 8 April 2025 evaluated (260 days); categories "khmer_new_year", "pchum_ben", "water_festival", "holiday",
    "before_exodus" (the three days before Khmer New Year and Pchum Ben), "coast_weekend" (Saturdays and Sundays),
    "after_shift" (and "chinese_new_year" in the history)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="KH")
    cities = _unequal(rng, list(_RIDES_DAILY))
    start, n = date(2024, 3, 4), 660
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.4 if d == _PAYMENT_OUTAGE else 1.0) * 1.12 ** (i / 365.25)
        values = []
        for c in cities:
            f = _ride_day(d, c, cal) * lift
            f *= 1.35 if c == "sihanoukville" and d >= _SIHANOUKVILLE_RIVAL else 1.0
            values.append(_poisson(rng, _RIDES_DAILY[c] * f * math.exp(rng.gauss(0, 0.04))))
        series.append((at, values))
        name = cal.name(d) or ""
        soon = [cal.name(d + timedelta(days=j)) or "" for j in range(1, 4)]
        if d == _PAYMENT_OUTAGE:
            incidents.add(at)
        if "Khmer New Year" in name:
            cats[at] = "khmer_new_year"
        elif "Pchum Ben" in name:
            cats[at] = "pchum_ben"
        elif "Water Festival" in name:
            cats[at] = "water_festival"
        elif name:
            cats[at] = "holiday"
        elif any("Khmer New Year" in s or "Pchum Ben" in s for s in soon):
            cats[at] = "before_exodus"
        elif any(0 <= (d - cny).days < 3 or d == cny - timedelta(days=1) for cny in _CNY_KH):
            cats[at] = "chinese_new_year"
        elif d.weekday() >= 5:
            cats[at] = "coast_weekend"
    shift = datetime(_SIHANOUKVILLE_RIVAL.year, _SIHANOUKVILLE_RIVAL.month, _SIHANOUKVILLE_RIVAL.day)
    for k in range(1, 29):  # the four weeks after it
        cats.setdefault(shift + timedelta(days=k), "after_shift")
    return Estate("rides_kh", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Zambian miller's mealie meal (25 kg bags) delivered per week by province, in an ordinary May week of 2022:
# Muchinga some thirty times smaller than Lusaka
_MEAL_WEEK = {"lusaka": 60_000.0, "copperbelt": 48_000.0, "central": 16_000.0, "southern": 15_000.0,
              "eastern": 12_000.0, "northern": 8_000.0, "north_western": 7_000.0, "luapula": 6_000.0,
              "western": 5_000.0, "muchinga": 2_000.0}
_MEAL_DAY = [1.05, 1.0, 1.0, 1.0, 1.1, 0.85, 0.0]  # Monday first: the depots closed on Sundays
_MEAL_TOWNS = {"lusaka", "copperbelt", "central"}  # salaried households: a bag bought on payday
# the hunger season (households' own maize finished before the harvest) and the harvest (their own maize milled at
# the hammer mills), by month for the rural provinces, January first (in no calendar)
_RURAL_SEASON = [1.3, 1.35, 1.3, 1.1, 0.85, 0.75, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25]
_DROUGHT_ZM = (date(2024, 5, 1), date(2025, 4, 30), 1.3)  # the El Niño harvest failed: the rural provinces buy meal
_LOAD_SHEDDING_ZM = (date(2024, 9, 2), date(2024, 12, 22), 0.85)  # the mills' shifts cut by power rationing
# the provinces' traditional ceremonies (in no calendar): the ceremony's week's meal for the gathering, x1.35; the
# Kuomboka waits for the Zambezi's flood and was not held in the 2024 drought
_CEREMONIES = {"western": [date(2022, 4, 9), date(2023, 4, 1), date(2025, 4, 12)],  # Kuomboka
               "eastern": [date(2022, 2, 26), date(2023, 2, 25), date(2024, 2, 24), date(2025, 2, 22)],  # Ncwala
               "luapula": [date(2022, 7, 30), date(2023, 7, 29), date(2024, 7, 27), date(2025, 7, 26)],  # Mutomboko
               "north_western": [date(2022, 8, 27), date(2023, 8, 26), date(2024, 8, 24), date(2025, 8, 30)],
               "southern": [date(2022, 10, 8), date(2023, 10, 7), date(2024, 10, 5), date(2025, 10, 4)]}
_NORTHERN_CONTRACT = date(2025, 10, 6)  # the miller wins a Northern Province retailer chain's supply (a Monday)
_ERP_WEEK = date(2024, 5, 13)  # the week whose Copperbelt deliveries the new ERP never posted


def _meal_day(d: date, province: str, cal: HolidayCalendar) -> float:
    """A province's seventh of an ordinary May week's bags on `d`: the depots' week, the holidays (closed, their
    eve's pull), payday's days, the rural seasons, the drought, load-shedding, Christmas and the ceremonies."""
    f = _MEAL_DAY[d.weekday()] * 7 / sum(_MEAL_DAY)
    if cal.name(d):
        return 0.0
    if cal.name(d + timedelta(days=1)):
        f *= 1.3  # the holiday's deliveries brought forward
    month_end = (date(d.year + (d.month == 12), d.month % 12 + 1, 1) - d).days  # days to the next month's 1st
    if month_end <= 5 or d.day <= 3:
        f *= 1.25 if province in _MEAL_TOWNS else 1.1
    if province not in _MEAL_TOWNS:
        f *= _RURAL_SEASON[d.month - 1] / 0.85  # against an ordinary May
        if _DROUGHT_ZM[0] <= d <= _DROUGHT_ZM[1]:
            f *= _DROUGHT_ZM[2]
    if _LOAD_SHEDDING_ZM[0] <= d <= _LOAD_SHEDDING_ZM[1]:
        f *= _LOAD_SHEDDING_ZM[2]
    if d.month == 12 and 15 <= d.day <= 24:
        f *= 1.2
    if any(0 <= (c - d).days < 7 for c in _CEREMONIES.get(province, [])):
        f *= 1.35  # the week up to the ceremony's Saturday
    return f


def maize_zm_weekly(seed: int) -> Estate:
    """Blind (twenty-ninth round): a Zambian miller's mealie meal (25 kg bags) delivered per week by province (ten:
    Lusaka 60,000 in an ordinary May week of 2022, the Copperbelt 48,000, Central 16,000, Southern 15,000, Eastern
    12,000, Northern 8,000, North-Western 7,000, Luapula 6,000, Western 5,000 and Muchinga 2,000, some thirty
    times smaller than Lusaka; in an order set by the seed), per ISO week keyed on its Monday, on Zambia's holidays
    (the `holidays` package's ZM: the depots closed, the working day before x1.3). A week is the sum of its days: the
    depots deliver Monday to Saturday (Friday x1.1, Saturday x0.85, Sunday nothing); payday's days (the last five of
    a month and its first three) x1.25 in the towns (Lusaka, the Copperbelt, Central), x1.1 elsewhere; 15 to 24
    December x1.2. In no calendar: the rural provinces' seasons (`_RURAL_SEASON`: the hunger season x1.35 in February
    against May's harvest, x0.75 in June and July), the El Niño drought (May 2024 to April 2025: the rural provinces
    x1.3 more), load-shedding (2 September to 22 December 2024: every province x0.85), the provinces' traditional
    ceremonies (`_CEREMONIES`: the week up to the Kuomboka, Ncwala, Mutomboko, Likumbi Lya Mize and Shimunenga
    Saturdays x1.35 in their province; no Kuomboka in the 2024 drought). From the week of Monday 6 October 2025 the
    miller supplies a Northern Province retail chain (Northern x1.5, the others unmoved; accepted by the owner as a
    shift). The week of Monday 13 May 2024 the new ERP never posted the Copperbelt's deliveries (x0.2 there;
    unlabelled, history only). 4% noise per province and week; +5% a year. From Monday 3 January 2022 (208 weeks, to
    the week of Monday 22 December 2025): three years read, from Monday 30 December 2024 evaluated (52 weeks);
    categories "ceremony", "christmas", "holiday", "drought", "month_end" (a week holding a month's last day),
    "after_shift" (the three weeks after the step, whatever else they hold)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ZM")
    provinces = _unequal(rng, list(_MEAL_WEEK))
    series = _weekly_sums(rng, date(2022, 1, 3), 208, provinces, _MEAL_WEEK, lambda d, p: _meal_day(d, p, cal) / 7,
                          growth=1.05, noise=0.04, step=("northern", _NORTHERN_CONTRACT, 1.5),
                          loss=("copperbelt", _ERP_WEEK, 0.2))
    cats: dict[datetime, str] = {}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        if any(0 <= (c - d).days < 7 for cs in _CEREMONIES.values() for c in cs for d in days):
            cats[at] = "ceremony"
        elif any(d.month == 12 and 15 <= d.day <= 31 for d in days):
            cats[at] = "christmas"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
        elif any(_DROUGHT_ZM[0] <= d <= _DROUGHT_ZM[1] for d in days):
            cats[at] = "drought"
        elif any((d + timedelta(days=1)).day == 1 for d in days):
            cats[at] = "month_end"
    shift = datetime(_NORTHERN_CONTRACT.year, _NORTHERN_CONTRACT.month, _NORTHERN_CONTRACT.day)
    for k in range(1, 4):  # the three weeks after it, whatever else they hold (October's holidays, a month's end)
        cats[shift + timedelta(weeks=k)] = "after_shift"
    return Estate("maize_zm_weekly", "day", series, 156, cal, cats, [shift],
                  incidents={datetime(_ERP_WEEK.year, _ERP_WEEK.month, _ERP_WEEK.day)})


# the solar (Hijri Shamsi) year's first day, 1 Hamal (Nowruz), as Afghanistan's calendar has it: its months Hamal to
# Sunbula of 31 days, Mizan to Dalw of 30, Hut of 29 (30 in a leap year: the rest of the year)
_NOWRUZ = [date(2021, 3, 21), date(2022, 3, 21), date(2023, 3, 21), date(2024, 3, 20), date(2025, 3, 21),
           date(2026, 3, 21)]
# an Afghan mobile operator's airtime top-ups (million afghani) per solar month by region, in an ordinary Jawza
# (May-June) of 1400: Bamyan some thirty times smaller than Kabul
_AIRTIME_MONTH = {"kabul": 1_800.0, "herat": 700.0, "bamyan": 60.0}
_HIGHLANDS = {"bamyan"}  # snowbound from Jadi to Hut (the Shibar pass closed, its herders down in the valleys)
_TAKEOVER = (date(2021, 8, 15), date(2021, 9, 30))  # the banks shut, cash scarce: top-ups x0.55 (no calendar)
_AFTER_TAKEOVER = 0.8  # aid and salaries cut: every region's level from Mizan 1400 on (before the history's end)
_INTERNET_SHUTDOWN = (date(2025, 9, 29), date(2025, 10, 1))  # the nationwide shutdown: the network down (x0.1)
_HERAT_RIVAL = date(2025, 5, 22)  # 1 Jawza 1404: a rival's Herat towers closed, its subscribers ported in


def _solar_months(first: date, last: date) -> list[tuple[date, date]]:
    """Afghanistan's solar months (first day, last day) from the year starting `first` to the one ending `last`."""
    out = []
    for start, nxt in pairwise(_NOWRUZ):
        if not first <= start <= last:
            continue
        lengths = [31] * 6 + [30] * 5 + [(nxt - start).days - 336]
        day = start
        for n in lengths:
            out.append((day, day + timedelta(days=n - 1)))
            day += timedelta(days=n)
    return out


def _airtime_day(d: date, region: str, cal: HolidayCalendar, ramadan: set[date]) -> float:
    """A region's top-ups on `d` against an ordinary day: Ramadan's nights, the Eids' greetings and their eves,
    Nowruz (in no calendar of the owner's), the highlands' winter and the takeover's months."""
    f = 1.0
    name = cal.name(d) or ""
    if d in ramadan:
        f *= 1.15
    if name.startswith(("Eid al-Fitr", "Eid al-Adha")):
        f *= 1.6
    elif (cal.name(d + timedelta(days=1)) or "").startswith(("Eid al-Fitr", "Eid al-Adha", "Day of Arafah")):
        f *= 1.4  # the eve: credit bought for the greetings
    if d in _NOWRUZ:
        f *= 1.3 if region != "kabul" else 1.1  # still kept in Herat and the Hazara highlands, no longer a holiday
    if region in _HIGHLANDS and (d.month == 12 and d.day >= 22 or d.month in (1, 2) or d.month == 3 and d.day < 20):
        f *= 0.7
    if _TAKEOVER[0] <= d <= _TAKEOVER[1]:
        f *= 0.55
    elif d > _TAKEOVER[1]:
        f *= _AFTER_TAKEOVER
    if _INTERNET_SHUTDOWN[0] <= d <= _INTERNET_SHUTDOWN[1]:
        f *= 0.1
    return f


def airtime_af_monthly(seed: int) -> Estate:
    """Blind (twenty-ninth round): an Afghan mobile operator's airtime top-ups (million afghani) per solar month by
    region (three: Kabul 1,800 in an ordinary Jawza of 1400, Herat 700 and Bamyan 60, some thirty times smaller than
    Kabul; in an order set by the seed). A partition is a month of the solar Hijri calendar keyed on its first day
    (1 Hamal, Nowruz, on 20 or 21 March; Hamal to Sunbula of 31 days, Mizan to Dalw of 30, Hut of 29 or 30: the
    months start on the 19th to 23rd of a Gregorian month). On Afghanistan's holidays (the `holidays` package's AF:
    Ramadan's first day, the Eids; Nowruz no longer among them). A month is the sum of its days: Ramadan's days x1.15
    (from the calendar's first day of Ramadan to the eve of Eid al-Fitr), each Eid day x1.6, its eve x1.4 (before
    al-Adha, Arafah and its eve); Nowruz x1.3 in Herat and Bamyan, x1.1 in Kabul (in no calendar); Bamyan's winter
    (22 December to 19 March) x0.7. The takeover of 15 August 2021: every region x0.55 to 30 September 2021 (the
    banks shut), x0.8 after (aid and salaries cut; the months of Asad, Sunbula and Mizan 1400 left as incidents,
    unlabelled). In no calendar: the nationwide internet and network shutdown of 29 September to 1 October 2025
    (x0.1 those days, in the month of Mizan 1404). From 1 Jawza 1404 (22 May 2025) a rival's Herat towers close and
    its subscribers port in (Herat x1.3, the others unmoved; accepted by the owner as a shift). 3% noise per region
    and month; +4% a year. From 1 Hamal 1400 (21 March 2021, 60 months, to Hut 1404): 36 read, from 1 Hamal 1403 (20
    March 2024) evaluated (24); categories "nowruz" (Hamal, whatever else it holds), "ramadan" (a month holding ten
    days of it or more), "eid" (a month holding an Eid's first day, Ramadan's aside), "winter" (Jadi, Dalw, Hut),
    "shutdown", "after_shift"."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AF")
    regions = _unequal(rng, list(_AIRTIME_MONTH))
    months = _solar_months(_NOWRUZ[0], _NOWRUZ[-1] - timedelta(days=1))
    days_all = [months[0][0] + timedelta(days=j) for j in range((months[-1][1] - months[0][0]).days + 1)]
    firsts = [d for d in days_all if (cal.name(d) or "").startswith("First Day of Ramadan")]
    fitr = [d for d in days_all if (cal.name(d) or "").startswith("Eid al-Fitr")
            and not (cal.name(d - timedelta(days=1)) or "").startswith("Eid al-Fitr")]
    ramadan = {first + timedelta(days=j) for first in firsts for e in fitr if 0 < (e - first).days < 31
               for j in range((e - first).days)}
    series, cats, incidents = [], {}, set()
    for k, (first, last) in enumerate(months):
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=j) for j in range((last - first).days + 1)]
        values = []
        for region in regions:
            f = sum(_airtime_day(d, region, cal, ramadan) for d in days) / 30.4 * 1.04 ** (k / 12)
            f *= 1.3 if region == "herat" and first >= _HERAT_RIVAL else 1.0
            values.append(_noisy(rng, _AIRTIME_MONTH[region] * f, 0.03))
        series.append((at, values))
        if any(_TAKEOVER[0] <= d <= _TAKEOVER[1] for d in days):
            incidents.add(at)
        elif any(_INTERNET_SHUTDOWN[0] <= d <= _INTERNET_SHUTDOWN[1] for d in days):
            cats[at] = "shutdown"
        elif first in _NOWRUZ:
            cats[at] = "nowruz"
        elif sum(d in ramadan for d in days) >= 10:
            cats[at] = "ramadan"
        elif any((cal.name(d) or "").startswith(("Eid al-Fitr", "Eid al-Adha"))
                 and not (cal.name(d - timedelta(days=1)) or "").startswith(("Eid al-Fitr", "Eid al-Adha"))
                 for d in days):
            cats[at] = "eid"
        elif k % 12 >= 9:
            cats[at] = "winter"
    shift = datetime(_HERAT_RIVAL.year, _HERAT_RIVAL.month, _HERAT_RIVAL.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 3]:  # the next two months
        cats.setdefault(at, "after_shift")
    return Estate("airtime_af_monthly", "day", series, 36, cal, cats, [shift], incidents=incidents)


# an Iraqi mobile operator's data sessions opened per local hour by governorate, against the governorate's busiest
# hour (22:00) of an ordinary summer working day: the operator's Karbala network (a newcomer's few sites) some
# twenty-seven times smaller than Baghdad's. Iraq's summer nights are its busy hours (the heat keeps people in by day)
_IQ_PEAK = {"baghdad": 5_400.0, "basra": 2_300.0, "najaf": 650.0, "karbala": 200.0}
_IQ_HOURS = [0.85, 0.7, 0.5, 0.35, 0.25, 0.2, 0.22, 0.3, 0.42, 0.5, 0.55, 0.58, 0.6, 0.6, 0.58, 0.6, 0.65, 0.72, 0.8,
             0.88, 0.94, 0.98, 1.0, 0.95]
_IQ_FRIDAY = {6: 0.6, 7: 0.6, 8: 0.65, 9: 0.7, 10: 0.75, 11: 0.8, 12: 0.75, 13: 0.8}  # the weekend's late morning, prayers
_ARBAEEN = date(2025, 8, 14)  # 20 Safar 1447 (in no calendar of the package's IQ): the pilgrims' day at Karbala
# Karbala's sessions by day from Arbaeen (the walkers arrive over ten days, the crowd of millions on the eve and the
# day, gone within three days); Najaf's as the walk to Karbala sets out from it, and the return by its shrine
_KARBALA_CROWD = {-10: 1.3, -9: 1.5, -8: 1.8, -7: 2.2, -6: 2.7, -5: 3.3, -4: 4.0, -3: 4.8, -2: 5.6, -1: 6.5, 0: 7.0,
                  1: 3.5, 2: 1.8, 3: 1.2}
_NAJAF_WALK = {-6: 1.3, -5: 1.6, -4: 1.8, -3: 1.5, -2: 1.2, -1: 1.1, 0: 1.1, 1: 1.4, 2: 1.3, 3: 1.1}
_LEFT_FOR_KARBALA = {-3: 0.92, -2: 0.9, -1: 0.88, 0: 0.9}  # Baghdad's and Basra's walkers away
# the days off Basra's governor declared for the heat (above 50°C), each announced the evening before (no calendar)
_HEAT_DAYS_OFF = [date(2025, 7, 23), date(2025, 7, 27), date(2025, 8, 20)]
# the mornings of the ministerial (sixth preparatory) exams: the government cuts the internet nationwide 06:00-07:59
_EXAM_CUTS = [date(2025, 7, 3), date(2025, 7, 7), date(2025, 7, 8), date(2025, 7, 10)]
_BASRA_CAMPS = datetime(2025, 8, 18, 10)  # local: the oil fields' camps move to the operator (Basra x1.2)


def _iq_hour(local: datetime, governorate: str) -> float:
    """A governorate's sessions in a local hour against its ordinary working day's 22:00: the summer night's
    shape, Friday's late morning, Arbaeen's crowd and walk, Basra's heat days off and the exams' cuts."""
    d, h = local.date(), local.hour
    shape = _IQ_HOURS[h]
    if d.weekday() == 4:
        shape *= _IQ_FRIDAY.get(h, 1.05)
    elif d.weekday() == 5 and 6 <= h <= 10:
        shape *= 0.8  # Saturday's late risers
    k = (d - _ARBAEEN).days
    f = shape
    if governorate == "karbala" and k in _KARBALA_CROWD:
        f = (0.55 + 0.45 * shape) * _KARBALA_CROWD[k]  # the walkers arrive day and night: a flatter day
    elif governorate == "najaf":
        f *= _NAJAF_WALK.get(k, 1.0)
    elif governorate in ("baghdad", "basra"):
        f *= _LEFT_FOR_KARBALA.get(k, 1.0)
    if governorate == "basra" and d in _HEAT_DAYS_OFF:
        f *= 0.7 if 6 <= h <= 9 else 1.15 if 11 <= h <= 16 else 1.0  # no commute, the afternoon at home
    if governorate == "basra" and local >= _BASRA_CAMPS:
        f *= 1.2
    if d in _EXAM_CUTS and 6 <= h <= 7:
        f *= 0.03
    return f


def mobile_data_iq_hourly(seed: int) -> Estate:
    """Blind (thirtieth round): an Iraqi mobile operator's data sessions opened per local hour by governorate (four:
    Baghdad 5,400 at an ordinary summer working day's 22:00, Basra 2,300, Najaf 650 and Karbala 200, some
    twenty-seven times smaller than Baghdad; in an order set by the seed), in Asia/Baghdad, three hours ahead of UTC
    all year (every point on the hour, every local hour holds rows), on Iraq's holidays (the `holidays` package's
    IQ: Ashura on 5 July 2025; Arbaeen is not among them). A summer day's shape (`_IQ_HOURS`: the nights busiest,
    22:00 the peak, 05:00 x0.2); Friday's morning to 13:00 x0.6-0.8 (the weekend, the prayers), Saturday's 06:00-10:59
    x0.8. In no calendar: Arbaeen (Thursday 14 August 2025, 20 Safar 1447), the mass pilgrimage to Karbala: Karbala's
    sessions from x1.3 ten days before to x6.5 on the eve and x7.0 on the day (a flatter day: walkers arrive through
    the night), x3.5, x1.8, x1.2 the three days after (`_KARBALA_CROWD`); Najaf x1.3-1.8 as the walk sets out from
    it (six to two days before) and x1.4, x1.3, x1.1 on the return by its shrine; Baghdad and Basra x0.88-0.92 from
    three days before to the day (their walkers away). Basra's governor declares days off for the heat the evening
    before (Wednesday 23 July, Sunday 27 July and Wednesday 20 August: Basra 06:00-09:59 x0.7, 11:00-16:59 x1.15).
    From Monday 18 August 10:00 the oil fields' camps move their staff to the operator (Basra x1.2, the others
    unmoved; accepted by the owner as a shift). The government cut the internet nationwide 06:00-07:59 on four exam
    mornings in July (3, 7, 8, 10 July: x0.03 everywhere; unlabelled incidents, history only). Poisson counts with 5%
    extra noise per hour and governorate. From Thursday 3 July 2025 (51 days, to Friday 22 August): 37 days of
    history, from Saturday 9 August 00:00 evaluated (14 days); categories "arbaeen" (from ten days before Arbaeen to
    three after, every governorate's hours), "heat_day_off", "friday", "after_shift" (the 18 hours after the step)."""
    rng = random.Random(seed)
    zone = "Asia/Baghdad"
    cal = HolidayCalendar(country="IQ")
    tz = ZoneInfo(zone)
    governorates = _unequal(rng, list(_IQ_PEAK))
    start, first = date(2025, 7, 3), date(2025, 8, 9)
    series, cats, incidents = [], {}, set()
    for k in range(51):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            holiday = 0.85 if cal.name(d) and h < 18 else 1.0  # Ashura's day: processions, offices shut
            values = [_poisson(rng, _IQ_PEAK[g] * _iq_hour(local, g) * holiday * math.exp(rng.gauss(0, 0.05)))
                      for g in governorates]
            at = _utc_hour(local, tz)
            series.append((at, values))
            if d in _EXAM_CUTS and 6 <= h <= 7:
                incidents.add(at)
            if -10 <= (d - _ARBAEEN).days <= 3:
                cats[at] = "arbaeen"
            elif d in _HEAT_DAYS_OFF:
                cats[at] = "heat_day_off"
            elif d.weekday() == 4:
                cats[at] = "friday"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_BASRA_CAMPS, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("mobile_data_iq_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Tanzanian mobile-money operator's agent cash-outs per day by zone, on an ordinary Wednesday of June 2021: Kigoma
# some twenty-six times smaller than Dar es Salaam. The Lake zone ("lake") was re-keyed on 1 April 2022 into two
# zones, Mwanza and Geita (its agents split 68/32): the old key holds no rows from that day, the new keys none before
_CASHOUT_DAILY = {"dar_es_salaam": 95_000.0, "lake": 36_000.0, "arusha": 24_000.0, "dodoma": 17_000.0,
                  "mbeya": 15_000.0, "kigoma": 3_600.0}
_LAKE_SPLIT = (date(2022, 4, 1), {"mwanza": 0.68, "geita": 0.32})
_CASHOUT_WEEK = [1.05, 0.95, 0.95, 1.0, 1.1, 1.15, 0.7]  # Monday first: Saturday's markets, Sunday's church
_TZ_RAMADAN = [(date(2022, 4, 3), date(2022, 5, 2)), (date(2023, 3, 23), date(2023, 4, 21))]  # in no calendar
_TZ_COAST = {"dar_es_salaam"}  # the Muslim coast: Ramadan's evenings, Eid's run-up strongest
_UPCOUNTRY = {"lake", "mwanza", "geita", "arusha", "dodoma", "mbeya", "kigoma"}  # home for Christmas from Dar
# the cash crops paid through the wallets (in no calendar): the Lake's cotton (June to September), Kigoma's and
# Mbeya's coffee (May to August)
_CROPS = {"lake": ((6, 9), 1.25), "mwanza": ((6, 9), 1.25), "geita": ((6, 9), 1.15), "kigoma": ((5, 8), 1.2),
          "mbeya": ((5, 8), 1.2)}
_NANE_NANE_DAYS = 7  # the Nane Nane farmers' show at Dodoma's Nzuguni grounds, the week up to Peasants' Day (8 Aug)
_DODOMA_DEALER = date(2022, 11, 7)  # a rival's Dodoma master agent moves its agents to the operator (a Monday)
_USSD_OUTAGE = date(2021, 12, 12)  # the USSD gateway down most of a Sunday (cash-outs failed, few recorded)


def _cashout_day(d: date, zone: str, cal: HolidayCalendar) -> float:
    """A zone's cash-outs on `d` against its ordinary Wednesday: the week, the month's turn (salaries), the census
    and the other holidays, Ramadan and Eid's run-up, Christmas's journey home, the crops and Nane Nane."""
    f = _CASHOUT_WEEK[d.weekday()]
    name = cal.name(d) or ""
    month_end = (date(d.year + (d.month == 12), d.month % 12 + 1, 1) - d).days
    if month_end <= 3 or d.day <= 2:
        f *= 1.2  # salaries at the month's turn
    if "Census" in name:
        f *= 0.35  # households wait at home for the enumerators; agents shut
    elif name.startswith("Eid"):
        f *= 0.55
    elif name:
        f *= 0.6
    elif cal.name(d - timedelta(days=1)):
        f *= 1.12  # the day after a holiday
    if any(first <= d <= last for first, last in _TZ_RAMADAN):
        f *= 1.05 if zone in _TZ_COAST else 1.0
    if any(0 < (last + timedelta(days=1) - d).days <= 5 for _, last in _TZ_RAMADAN) and not name:
        f *= 1.35 if zone in _TZ_COAST else 1.15  # Eid's clothes, food and fares
    if d.month == 12 and 18 <= d.day <= 24:
        f *= 1.3  # fares and gifts before the journey home
    elif d.month == 12 and d.day >= 27 or d.month == 1 and d.day <= 2:
        f *= 1.2 if zone in _UPCOUNTRY else 0.8
    if zone in _CROPS and _CROPS[zone][0][0] <= d.month <= _CROPS[zone][0][1]:
        f *= _CROPS[zone][1]
    if zone == "dodoma" and d.month == 8 and 8 - _NANE_NANE_DAYS <= d.day < 8:
        f *= 1.25
    return f


def cashouts_tz(seed: int) -> Estate:
    """Blind (thirtieth round): a Tanzanian mobile-money operator's agent cash-outs per day by zone (eight keys: Dar
    es Salaam 95,000 on an ordinary Wednesday of June 2021, the Lake zone 36,000, Arusha 24,000, Dodoma 17,000,
    Mbeya 15,000 and Kigoma 3,600, some twenty-six times smaller than Dar es Salaam; on Friday 1 April 2022 the Lake
    zone is re-keyed into Mwanza and Geita, its agents split 68/32: "lake" holds no rows from that day, "mwanza" and
    "geita" none before, their sum the old key's; in an order set by the seed), on Tanzania's holidays (the
    `holidays` package's TZ: the National Population and Housing Census Day, Tuesday 23 August 2022, among them).
    The week (`_CASHOUT_WEEK`: Saturday x1.15, Sunday x0.7); the month's last three days and first two x1.2
    (salaries); the census day x0.35 (households at home for the enumerators), an Eid day x0.55, another holiday
    x0.6, the day after a holiday x1.12. In no calendar: Ramadan (Dar es Salaam x1.05) and the five days before Eid
    al-Fitr (Dar es Salaam x1.35, the others x1.15); 18-24 December x1.3 (fares and gifts), 27 December to 2 January
    upcountry x1.2 and Dar es Salaam x0.8; the crops paid through the wallets (the Lake's cotton June to September
    x1.25, Geita x1.15; Kigoma's and Mbeya's coffee May to August x1.2); Nane Nane's farmers' show, Dodoma x1.25 the
    seven days before Peasants' Day. From Monday 7 November 2022 a rival's Dodoma master agent moves its agents to
    the operator (Dodoma x1.3, the others unmoved; accepted by the owner as a shift). The USSD gateway failed most of
    Sunday 12 December 2021 (x0.3 everywhere; unlabelled, history only). Poisson counts with 4% extra noise per zone;
    +15% a year. From Tuesday 1 June 2021 (700 days, to Sunday 30 April 2023): from Wednesday 6 July 2022 evaluated
    (300 days); categories "census", "holiday", "after_holiday", "eid_run_up", "ramadan", "christmas" (18 December
    to 2 January), "nane_nane", "month_turn", "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TZ")
    zones = _unequal(rng, [*_CASHOUT_DAILY, *_LAKE_SPLIT[1]])
    start, n = date(2021, 6, 1), 700
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.3 if d == _USSD_OUTAGE else 1.0) * 1.15 ** (i / 365.25)
        values = []
        for z in zones:
            if z in _LAKE_SPLIT[1]:
                size = _CASHOUT_DAILY["lake"] * _LAKE_SPLIT[1][z] if d >= _LAKE_SPLIT[0] else 0.0
            else:
                size = _CASHOUT_DAILY[z] if z != "lake" or d < _LAKE_SPLIT[0] else 0.0
            f = _cashout_day(d, z, cal) * lift
            f *= 1.3 if z == "dodoma" and d >= _DODOMA_DEALER else 1.0
            values.append(_poisson(rng, size * f * math.exp(rng.gauss(0, 0.04))) if size else 0.0)
        series.append((at, values))
        name = cal.name(d) or ""
        month_end = (date(d.year + (d.month == 12), d.month % 12 + 1, 1) - d).days
        if d == _USSD_OUTAGE:
            incidents.add(at)
        if "Census" in name:
            cats[at] = "census"
        elif name:
            cats[at] = "holiday"
        elif d.month == 12 and d.day >= 18 or d.month == 1 and d.day <= 2:
            cats[at] = "christmas"
        elif any(0 < (last + timedelta(days=1) - d).days <= 5 for _, last in _TZ_RAMADAN):
            cats[at] = "eid_run_up"
        elif cal.name(d - timedelta(days=1)):
            cats[at] = "after_holiday"
        elif any(first <= d <= last for first, last in _TZ_RAMADAN):
            cats[at] = "ramadan"
        elif d.month == 8 and 8 - _NANE_NANE_DAYS <= d.day < 8:
            cats[at] = "nane_nane"
        elif month_end <= 3 or d.day <= 2:
            cats[at] = "month_turn"
    shift = datetime(_DODOMA_DEALER.year, _DODOMA_DEALER.month, _DODOMA_DEALER.day)
    for k in range(1, 29):
        cats.setdefault(shift + timedelta(days=k), "after_shift")
    return Estate("cashouts_tz", "day", series, 400, cal, cats, [shift], incidents=incidents)


# a Panamanian supermarket chain's till tickets per ISO week by province (eleven: the ten provinces' stores and the
# Ngäbe-Buglé comarca's), in an ordinary week of May 2022: the comarca some thirty-two times smaller than Panamá
_PA_WEEK = {"panama": 42_000.0, "panama_oeste": 18_000.0, "chiriqui": 12_000.0, "colon": 8_000.0, "cocle": 6_000.0,
            "veraguas": 6_000.0, "herrera": 4_500.0, "los_santos": 3_000.0, "bocas_del_toro": 2_600.0,
            "darien": 1_500.0, "ngabe_bugle": 1_300.0}
_PA_DAY = [0.9, 0.85, 0.9, 0.95, 1.15, 1.3, 0.95]  # Monday first: Friday's and Saturday's shop
_CITY = {"panama", "panama_oeste", "colon"}  # the cities that empty to the interior on long weekends
# Carnival's four days (Saturday to Tuesday before Ash Wednesday; the calendar holds its Tuesday): Las Tablas (Los
# Santos), Chitré (Herrera) and Penonomé (Coclé) fill, the capital empties (in no calendar but its Tuesday)
_CARNIVAL = {"los_santos": 2.8, "herrera": 1.6, "cocle": 1.2, "panama": 0.8, "panama_oeste": 0.85, "colon": 0.9}
_THIRTEENTH = ((4, 15), (8, 15), (12, 15))  # the décimo tercer mes, paid in thirds (the three days after each x1.2)
_BLOCKADES = (date(2023, 10, 23), date(2023, 11, 30))  # the mining contract's protests: roads blocked nationwide
_BLOCKADE_HIT = {"chiriqui": 0.5, "bocas_del_toro": 0.45, "veraguas": 0.55, "ngabe_bugle": 0.4, "cocle": 0.8}
_CANAL_DROUGHT = (date(2023, 8, 1), date(2024, 3, 31), 0.93)  # the canal's draft limits: Colón's free zone slow
_DARIEN_RAINS = ((10, 1), (11, 30), 0.85)  # the Pan-American's unpaved end floods (in no calendar)
_OESTE_TAKEOVER = date(2025, 6, 2)  # a rival's six Panamá Oeste stores rebranded into the chain (a Monday)
_COLON_EXPORT = date(2022, 9, 12)  # the week whose Colón tickets the POS export never sent (in part)


def _carnival_saturday(year: int) -> date:
    return _easter(year) - timedelta(days=50)  # Ash Wednesday is 46 days before Easter; Carnival starts four before


def _pa_day(d: date, province: str, cal: HolidayCalendar) -> float:
    """A province's seventh of an ordinary week's tickets on `d`: the week, the quincenas, the thirteenth month,
    Carnival, Holy Week, the holidays, Mother's Day, Christmas and New Year, the blockades, the drought and the rains."""
    f = _PA_DAY[d.weekday()] * 7 / sum(_PA_DAY)
    last = (date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)).day
    if d.day in (15, 16) or d.day in (last, 1):
        f *= 1.3  # the quincena: paid on the 15th and the month's last day
    if any(0 <= (d - date(d.year, m, day)).days < 3 for m, day in _THIRTEENTH):
        f *= 1.2
    carnival = _carnival_saturday(d.year)
    name = cal.name(d) or ""
    if 0 <= (d - carnival).days < 4:
        f *= _CARNIVAL.get(province, 1.0)
    elif 0 < (carnival - d).days <= 2:
        f *= 1.25  # ice, seco and beer bought for the four days
    elif d == _easter(d.year) - timedelta(days=3):
        f *= 1.3  # Holy Thursday: the fish and the family's meals
    elif name == "Good Friday":
        f *= 0.6
    elif name.startswith(("Christmas", "New Year")):
        f *= 0.3
    elif name:
        f *= 0.85 if province in _CITY else 1.15  # a long weekend in the interior
    if d.month == 12 and name != "Christmas Day":
        f *= 1.6 if 20 <= d.day <= 24 else 1.5 if d.day == 31 else 1.2 if d.day >= 15 else 1.0
        f *= 1.15 if d.day in (6, 7) else 1.0  # Mother's Day (8 December) gifts and lunch
    if _BLOCKADES[0] <= d <= _BLOCKADES[1]:
        f *= _BLOCKADE_HIT.get(province, 0.95)
    if province == "colon" and _CANAL_DROUGHT[0] <= d <= _CANAL_DROUGHT[1]:
        f *= _CANAL_DROUGHT[2]
    if province == "darien" and _DARIEN_RAINS[0][0] <= d.month <= _DARIEN_RAINS[1][0]:
        f *= _DARIEN_RAINS[2]
    return f


def supermarkets_pa_weekly(seed: int) -> Estate:
    """Blind (thirtieth round): a Panamanian supermarket chain's till tickets per ISO week (keyed on its Monday) by
    province (eleven: Panamá 42,000 in an ordinary week of May 2022, Panamá Oeste 18,000, Chiriquí 12,000, Colón
    8,000, Coclé and Veraguas 6,000, Herrera 4,500, Los Santos 3,000, Bocas del Toro 2,600, Darién 1,500 and the
    Ngäbe-Buglé comarca 1,300, some thirty-two times smaller than Panamá; in an order set by the seed), on Panama's
    holidays (the `holidays` package's PA: Carnival Tuesday, November's fiestas patrias on the 3rd, 5th, 10th and
    28th, Mother's Day on 8 December). A week is the sum of its days (`_PA_DAY`: Saturday x1.3); the quincenas (the
    15th and 16th, the month's last day and the 1st) x1.3; the thirteenth month paid in thirds (15 April, 15 August,
    15 December: the three days from each x1.2). Carnival's four days (Saturday to Tuesday) Los Santos x2.8 (Las
    Tablas), Herrera x1.6, Coclé x1.2, Panamá x0.8, Panamá Oeste x0.85, Colón x0.9, the two days before x1.25
    everywhere; Holy Thursday x1.3, Good Friday x0.6; Christmas and New Year's Day x0.3, another holiday x0.85 in
    the cities and x1.15 in the interior; December from the 15th x1.2, 20-24 x1.6, the 31st x1.5, 6-7 December x1.15
    more (Mother's Day). In no calendar: the canal's drought (August 2023 to March 2024: Colón x0.93), Darién's
    rains (October and November x0.85). The mining contract's protests blocked the roads from 23 October to 30
    November 2023 (Chiriquí x0.5, Bocas x0.45, Veraguas x0.55, the comarca x0.4, Coclé x0.8, the others x0.95: the
    six weeks left as incidents, unlabelled), and the POS export sent a third of Colón's tickets for the week of 12
    September 2022 (an incident too). From the week of Monday 2 June 2025 a rival's six Panamá Oeste stores are
    rebranded into the chain (Panamá Oeste x1.3, the others unmoved; accepted by the owner as a shift). 3% noise per
    province and week; +3% a year. From Monday 3 January 2022 (208 weeks, to the week of Monday 22 December 2025):
    three years read, from Monday 30 December 2024 evaluated (52 weeks); categories "carnival" (the weeks holding
    its four days and the two before), "holy_week", "fiestas_patrias" (a week holding a November holiday),
    "christmas" (a week holding 6-31 December), "thirteenth_month" (a week holding 15-17 April or August), "holiday",
    "after_shift" (the three weeks after the step, whatever else they hold)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PA")
    provinces = _unequal(rng, list(_PA_WEEK))
    series = _weekly_sums(rng, date(2022, 1, 3), 208, provinces, _PA_WEEK, lambda d, p: _pa_day(d, p, cal) / 7,
                          growth=1.03, noise=0.03, step=("panama_oeste", _OESTE_TAKEOVER, 1.3),
                          loss=("colon", _COLON_EXPORT, 0.33))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_COLON_EXPORT.year, _COLON_EXPORT.month, _COLON_EXPORT.day)}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        if any(_BLOCKADES[0] <= d <= _BLOCKADES[1] for d in days):
            incidents.add(at)
        elif any(-2 <= (d - _carnival_saturday(d.year)).days < 4 for d in days):
            cats[at] = "carnival"
        elif any(d == _easter(d.year) - timedelta(days=3) for d in days):
            cats[at] = "holy_week"
        elif any(d.month == 12 and d.day >= 6 for d in days):
            cats[at] = "christmas"
        elif any(d.month == 11 and cal.name(d) for d in days):
            cats[at] = "fiestas_patrias"
        elif any(d.month in (4, 8) and 15 <= d.day <= 17 for d in days):
            cats[at] = "thirteenth_month"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_OESTE_TAKEOVER.year, _OESTE_TAKEOVER.month, _OESTE_TAKEOVER.day)
    for k in range(1, 4):
        cats[shift + timedelta(weeks=k)] = "after_shift"
    return Estate("supermarkets_pa_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Santo Domingo wholesale produce market's weighbridge tickets (a lorry's, a pickup's or a handcart's load weighed
# in) per market day by kind of produce, on an ordinary Tuesday of 2022: imported fruit some twenty-seven times
# fewer than plantains and roots. The market opens on Tuesdays, Thursdays and Saturdays; a market day that is a
# holiday opens the day before instead (a Monday, Wednesday or Friday partition), and a closed day holds no rows
_MERCA_DAY = {"plantain_roots": 1_500.0, "vegetables": 1_000.0, "imported_fruit": 55.0}
_MARKET_DAYS = {1: 1.0, 3: 0.9, 5: 1.25}  # Tuesday, Thursday, Saturday (the colmados' weekend stock)
_MOVED_DAY = 1.15  # a market moved to the day before a holiday: two days' buyers
# the highlands' (Constanza's) vegetables by month, January first: the dry season's harvests, the rains' gap
_VEG_SEASON = [1.1, 1.1, 1.05, 1.0, 0.95, 0.95, 0.95, 0.9, 0.85, 0.85, 0.95, 1.05]
# apples, grapes and pears shipped in for Christmas and New Year's Eve's twelve grapes (in no calendar), by day
_STORMS_DO = {date(2023, 8, 24): 0.55, date(2023, 11, 18): 0.6, date(2024, 7, 2): 0.8, date(2024, 11, 5): 0.75,
              date(2025, 10, 28): 0.7}  # Franklin, the November 2023 floods, Beryl, Rafael's rains, Melissa's rains
_SUPERMARKET_BUYERS = date(2024, 9, 3)  # a supermarket chain's buyers start buying vegetables at the market (Tuesday)
_WEIGHBRIDGE_DOWN = date(2023, 1, 12)  # the weighbridge's software down a Thursday (tickets written by hand)


def _fruit_season(d: date) -> float:
    if d.month == 11:
        return 1.5
    if d.month == 12:
        return 3.0 if d.day <= 10 else 6.0 if d.day <= 24 else 2.5  # New Year's Eve's grapes after Christmas
    return 0.7 if d.month == 1 else 1.0


def _market_days(cal: HolidayCalendar, first: date, last: date) -> list[tuple[date, bool]]:
    """The market's open days from `first` to `last`: each Tuesday, Thursday and Saturday that is no holiday, or
    the day before one that is (when that day is no holiday itself), with whether it was moved."""
    out, day = [], first
    while day <= last:
        nxt = day + timedelta(days=1)
        if day.weekday() in _MARKET_DAYS and not cal.name(day):
            out.append((day, False))
        elif nxt.weekday() in _MARKET_DAYS and cal.name(nxt) and not cal.name(day) and nxt <= last:
            out.append((day, True))
        day = nxt
    return out


def _produce_day(d: date, moved: bool, kind: str) -> float:
    """A kind's tickets on a market day against an ordinary Tuesday's: the market's week, a moved day, the seasons,
    Holy Week's beans and sweet potatoes, Christmas's pasteles and fruit, and the storms."""
    f = _MARKET_DAYS[(d + timedelta(days=1)).weekday()] * _MOVED_DAY if moved else _MARKET_DAYS[d.weekday()]
    easter = _easter(d.year)
    if kind == "vegetables":
        f *= _VEG_SEASON[d.month - 1]
    elif kind == "plantain_roots" and d.month in (8, 9, 10):
        f *= 0.9
    elif kind == "imported_fruit":
        f *= _fruit_season(d)
    if 3 <= (easter - d).days <= 6:
        f *= 1.5 if kind == "plantain_roots" else 1.2  # habichuelas con dulce: beans, sweet potatoes, milk
    elif (easter - d).days == 1:
        f *= 0.6  # Holy Saturday: the capital at the beaches
    if d.month == 12 and 18 <= d.day <= 24 and kind != "imported_fruit":
        f *= 1.3  # pasteles en hoja and the Nochebuena
    return f * _STORMS_DO.get(d, 1.0)


def produce_do(seed: int) -> Estate:
    """Blind (thirtieth round): a Santo Domingo wholesale produce market's weighbridge tickets per market day by kind
    (three: plantains and roots 1,500 on an ordinary Tuesday of 2022, vegetables 1,000 and imported fruit 55, some
    twenty-seven times fewer than plantains; in an order set by the seed), on the Dominican Republic's holidays (the
    `holidays` package's DO, its Monday-moved holidays among them). The market opens on Tuesdays, Thursdays and
    Saturdays only (Thursday x0.9, Saturday x1.25): no rows on the other days, no partition; a market day that is a
    holiday opens the day before instead (a Monday, Wednesday or Friday partition, x1.15 over the market day it
    replaces). Vegetables by month (`_VEG_SEASON`: x1.1 in the dry season, x0.85 in September and October's rains),
    plantains and roots x0.9 from August to October. In no calendar: Holy Week (the market days three to six days
    before Easter: plantains and roots x1.5, the rest x1.2: habichuelas con dulce; Holy Saturday x0.6), 18-24
    December x1.3 (pasteles en hoja), the imported fruit's season (November x1.5, 1-10 December x3, 11-24 December
    x6, then x2.5 for New Year's Eve's grapes, January x0.7), the storms (`_STORMS_DO`: Franklin's flooded roads on
    24 August 2023 x0.55, the November 2023 floods x0.6, Beryl, Rafael's and Melissa's rains x0.7-0.8). From Tuesday
    3 September 2024 a supermarket chain's buyers buy vegetables at the market (vegetables x1.25, the others
    unmoved; accepted by the owner as a shift). The weighbridge's software failed on Thursday 12 January 2023 (x0.25
    everywhere: tickets written by hand, never loaded; unlabelled, history only). Poisson counts with 5% extra noise
    per kind; +6% a year. From Tuesday 4 January 2022 to Saturday 1 November 2025 (about 600 market days): from
    the 341st (Thursday 7 March 2024) evaluated; categories "moved_market_day", "holy_week", "christmas" (December's
    market days), "fruit_season" (November's), "storm", "after_holiday" (the first market day after a holiday
    closed one), "after_shift" (the eight market days after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="DO")
    kinds = _unequal(rng, list(_MERCA_DAY))
    start = date(2022, 1, 4)
    days = _market_days(cal, start, date(2025, 11, 1))
    series, cats, incidents = [], {}, set()
    previous_moved = False
    for d, moved in days:
        at = datetime(d.year, d.month, d.day)
        lift = (0.25 if d == _WEIGHBRIDGE_DOWN else 1.0) * 1.06 ** ((d - start).days / 365.25)
        values = []
        for kind in kinds:
            f = _produce_day(d, moved, kind) * lift
            f *= 1.25 if kind == "vegetables" and d >= _SUPERMARKET_BUYERS else 1.0
            values.append(_poisson(rng, _MERCA_DAY[kind] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        easter = _easter(d.year)
        if d == _WEIGHBRIDGE_DOWN:
            incidents.add(at)
        if d in _STORMS_DO:
            cats[at] = "storm"
        elif moved:
            cats[at] = "moved_market_day"
        elif 1 <= (easter - d).days <= 6:
            cats[at] = "holy_week"
        elif d.month == 12:
            cats[at] = "christmas"
        elif d.month == 11:
            cats[at] = "fruit_season"
        elif previous_moved:
            cats[at] = "after_holiday"
        previous_moved = moved
    shift = datetime(_SUPERMARKET_BUYERS.year, _SUPERMARKET_BUYERS.month, _SUPERMARKET_BUYERS.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 9]:
        cats.setdefault(at, "after_shift")
    return Estate("produce_do", "day", series, 340, cal, cats, [shift], incidents=incidents)


# a Kigali bus network's fare-card boardings (a tap on the bus's validator) per local hour by corridor, at an ordinary
# weekday's 07:00 of June 2025: the Kabuga express some twenty-two times smaller than the Nyabugogo-downtown routes.
# Buses run 05:00-22:59 (no rows outside, no partition); on Umuganda, the last Saturday of each month, the roads are
# closed for the community work from 07:00 to 10:59: no bus runs, no rows, no partition for those four hours
_KIGALI_PEAK = {"nyabugogo_downtown": 4_400.0, "remera_kimironko": 2_600.0, "kicukiro_nyanza": 1_700.0,
                "nyamirambo": 1_100.0, "kabuga_express": 200.0}
_KIGALI_HOURS = {5: 0.35, 6: 0.8, 7: 1.0, 8: 0.85, 9: 0.55, 10: 0.45, 11: 0.45, 12: 0.5, 13: 0.5, 14: 0.45, 15: 0.5,
                 16: 0.65, 17: 0.9, 18: 0.95, 19: 0.7, 20: 0.45, 21: 0.3, 22: 0.15}  # a weekday's service hours
_UMUGANDA_CLOSED = range(7, 11)  # the last Saturday's community work: the roads closed, no bus runs
_UMUGANDA_RETURN = {5: 0.5, 6: 0.5, 11: 1.8, 12: 1.5}  # few out before the closure, everyone out after it
_CAR_FREE = range(7, 10)  # the first and third Sundays' car-free mornings: the central corridors' roads shut
_CAR_FREE_CORRIDORS = {"nyabugogo_downtown": 0.6, "remera_kimironko": 0.6}
_ARENA_NIGHTS = (date(2025, 7, 27), date(2025, 8, 2))  # a basketball festival at the Remera arena (no calendar)
_ARENA_HOURS = {19: 1.5, 20: 1.9, 21: 2.2, 22: 2.0}  # Remera-Kimironko's boardings as the crowds go home
_KICUKIRO_EBUSES = datetime(2025, 7, 28, 5)  # local: forty electric buses join the Kicukiro-Nyanza corridor (x1.3)
_VALIDATORS_DOWN = (date(2025, 6, 25), range(13, 17))  # the card system down: fares paid in cash, not recorded


def _umuganda(d: date) -> bool:
    """The last Saturday of its month (Rwanda's monthly community work day)."""
    return d.weekday() == 5 and (d + timedelta(days=7)).month != d.month


def _car_free(d: date) -> bool:
    """Kigali's car-free day: the first and third Sundays of a month."""
    return d.weekday() == 6 and (d.day - 1) // 7 in (0, 2)


def _kigali_hour(local: datetime, corridor: str, cal: HolidayCalendar) -> float:
    """A corridor's boardings in a local service hour against an ordinary weekday's 07:00: the week, a holiday,
    Umuganda's morning and return, the car-free Sunday mornings, the arena's nights and the new e-buses."""
    d, h = local.date(), local.hour
    shape = _KIGALI_HOURS[h]
    if cal.name(d):
        f = 0.35 + 0.3 * shape  # a holiday: no commute, visits and the markets
    elif d.weekday() == 6:
        f = (0.3 + 0.3 * shape) * (1.3 if 8 <= h <= 10 else 1.0)  # church
    elif d.weekday() == 5:
        f = (0.4 + 0.35 * shape) * (_UMUGANDA_RETURN.get(h, 1.0) if _umuganda(d) else 1.0)
    else:
        f = shape
    if _car_free(d) and h in _CAR_FREE:
        f *= _CAR_FREE_CORRIDORS.get(corridor, 1.0)
    if corridor == "remera_kimironko" and _ARENA_NIGHTS[0] <= d <= _ARENA_NIGHTS[1]:
        f *= _ARENA_HOURS.get(h, 1.0)
    if corridor == "kicukiro_nyanza" and local >= _KICUKIRO_EBUSES:
        f *= 1.3
    if d == _VALIDATORS_DOWN[0] and h in _VALIDATORS_DOWN[1]:
        f *= 0.15
    return f


def buses_kigali_hourly(seed: int) -> Estate:
    """Blind (thirty-first round): a Kigali bus network's fare-card boardings per local hour by corridor (five:
    Nyabugogo-downtown 4,400 at an ordinary weekday's 07:00 of June 2025, Remera-Kimironko 2,600, Kicukiro-Nyanza
    1,700, Nyamirambo 1,100 and the Kabuga express 200, some twenty-two times smaller; in an order set by the seed),
    in Africa/Kigali, two hours ahead of UTC all year (every point on the hour), on Rwanda's holidays (the
    `holidays` package's RW: Independence Day Tuesday 1 July, Liberation Day Friday 4 July, Umuganura Day Friday 1
    August 2025). Buses run 05:00-22:59 only: no rows, no partition outside (eighteen a day). A weekday's shape
    (`_KIGALI_HOURS`: 07:00 the peak, 18:00 x0.95, 22:00 x0.15); Saturdays 0.4 + 0.35 x the shape, Sundays 0.3 + 0.3
    x the shape (08:00-10:59 x1.3, church), a holiday 0.35 + 0.3 x the shape. In no calendar: Umuganda, the last
    Saturday of each month (28 June and 26 July 2025): the roads closed for the community work 07:00-10:59, no bus
    runs, no partition (four hours missing from the day), 05:00-06:59 x0.5, 11:00 x1.8 and 12:00 x1.5 as everyone
    goes out after it; the car-free mornings of the first and third Sundays (07:00-09:59: Nyabugogo-downtown and
    Remera-Kimironko x0.6, their roads shut); a basketball festival's nights at the Remera arena, 27 July to 2
    August (Remera-Kimironko 19:00-22:59 x1.5-2.2). From Monday 28 July 05:00 forty electric buses join the
    Kicukiro-Nyanza corridor (x1.3, the others unmoved; accepted by the owner as a shift). The card system failed on
    Wednesday 25 June 13:00-16:59 (x0.15 everywhere, fares paid in cash never recorded; unlabelled incidents,
    history only). Poisson counts with 5% extra noise per hour and corridor. From Monday 16 June 2025 05:00 (49
    days, to Sunday 3 August): 35 days of history, from Monday 21 July 05:00 evaluated (14 days); categories
    "umuganda" (the last Saturday's remaining hours), "car_free" (the car-free mornings' hours), "arena_night" (the
    festival's 19:00-22:59), "holiday" (a holiday's hours), "after_shift" (the eighteen service hours after the
    step)."""
    rng = random.Random(seed)
    zone = "Africa/Kigali"
    cal = HolidayCalendar(country="RW")
    tz = ZoneInfo(zone)
    corridors = _unequal(rng, list(_KIGALI_PEAK))
    start, first = date(2025, 6, 16), date(2025, 7, 21)
    series, cats, incidents = [], {}, set()
    for k in range(49):
        d = start + timedelta(days=k)
        for h in _KIGALI_HOURS:
            if _umuganda(d) and h in _UMUGANDA_CLOSED:
                continue
            local = datetime(d.year, d.month, d.day, h)
            values = [_poisson(rng, _KIGALI_PEAK[c] * _kigali_hour(local, c, cal) * math.exp(rng.gauss(0, 0.05)))
                      for c in corridors]
            at = _utc_hour(local, tz)
            series.append((at, values))
            if d == _VALIDATORS_DOWN[0] and h in _VALIDATORS_DOWN[1]:
                incidents.add(at)
            elif _umuganda(d):
                cats[at] = "umuganda"
            elif cal.name(d):
                cats[at] = "holiday"
            elif _car_free(d) and h in _CAR_FREE:
                cats[at] = "car_free"
            elif _ARENA_NIGHTS[0] <= d <= _ARENA_NIGHTS[1] and h in _ARENA_HOURS:
                cats[at] = "arena_night"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_KICUKIRO_EBUSES, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day, 5), tz)
    return Estate("buses_kigali_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Senegalese intercity booking app's coach and sept-place tickets per day by departure region, at its base level
# of January 2023 (the week's factors multiply it): Tambacounda's departures some twenty-one times fewer than Dakar's
_SN_DEPARTURES = {"dakar": 9_000.0, "thies": 3_200.0, "diourbel": 2_400.0, "kaolack": 1_800.0, "saint_louis": 1_500.0,
                  "ziguinchor": 700.0, "tambacounda": 420.0}
_DAKAR_WEEK = [0.9, 0.85, 0.85, 0.95, 1.35, 1.1, 0.8]  # Monday first: Friday's departures home for the weekend
_REGIONS_WEEK = [0.95, 0.85, 0.85, 0.9, 1.0, 1.05, 1.4]  # Sunday's returns to Dakar
# the Grand Magal of Touba (18 Safar), as the pilgrims kept it: the package's SN lists 4 September 2023 and 23 August
# 2024 as kept, and 2025's as Tuesday 12 August (estimated) where the Magal fell on Wednesday 13 August
_MAGAL = [date(2023, 9, 4), date(2024, 8, 23), date(2025, 8, 13)]
_TO_TOUBA = {"dakar": {-4: 1.3, -3: 1.6, -2: 2.2, -1: 2.5, 0: 0.7}, "thies": {-3: 1.4, -2: 1.8, -1: 2.0, 0: 0.8},
             "kaolack": {-2: 1.3, -1: 1.5}, "saint_louis": {-2: 1.3, -1: 1.5}}  # the pilgrims' journey in
_FROM_TOUBA = {-3: 0.8, -2: 0.8, -1: 0.8, 0: 1.5, 1: 5.0, 2: 3.5, 3: 1.8, 4: 1.2}  # Diourbel's departures: home again
# Tabaski (Eid al-Adha) as Senegal kept it (the package's SN: 29 June 2023, 17 June 2024, 6 June 2025 estimated)
_TABASKI_SN = [date(2023, 6, 29), date(2024, 6, 17), date(2025, 6, 7)]
_HOME_FOR_TABASKI = {-5: 1.4, -4: 1.8, -3: 2.4, -2: 2.8, -1: 2.0, 0: 0.3, 1: 0.6, 2: 0.8}  # Dakar's departures
_BACK_FROM_TABASKI = {-5: 0.9, -4: 0.9, -3: 0.9, -2: 0.9, -1: 0.9, 0: 0.3, 1: 1.2, 2: 2.2, 3: 2.6, 4: 1.6}
_SN_RAMADAN = [(date(2023, 3, 23), date(2023, 4, 20)), (date(2024, 3, 11), date(2024, 4, 9)),
               (date(2025, 3, 1), date(2025, 3, 29))]  # in no calendar
# the rainy season (hivernage) by year, its onset weeks apart (in no calendar): the south's and east's roads cut,
# the groundnut basin's farmers in their fields
_SN_RAINS = {2023: (date(2023, 7, 3), date(2023, 10, 15)), 2024: (date(2024, 7, 22), date(2024, 10, 20)),
             2025: (date(2025, 6, 30), date(2025, 10, 10))}
_RAINS_HIT = {"tambacounda": 0.75, "ziguinchor": 0.8, "kaolack": 0.85}
_ZIGUINCHOR_PARTNER = date(2025, 1, 20)  # a Casamance coach company's departures sold on the app (a Monday)
_GATEWAY_DOWN_SN = date(2023, 11, 11)  # the payment gateway down most of a Saturday (few tickets sold)


def _sn_rains(d: date) -> bool:
    first, last = _SN_RAINS.get(d.year, (d, d - timedelta(days=1)))
    return first <= d <= last


def _coach_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's departures on `d` against its ordinary Tuesday: the week, the Magal's journeys in and out of
    Touba, Tabaski's journey home and back, Korité, the other holidays, Ramadan and the rains."""
    f = (_DAKAR_WEEK if region == "dakar" else _REGIONS_WEEK)[d.weekday()]
    magal = min(_MAGAL, key=lambda m: abs((d - m).days))
    k = (d - magal).days
    if region == "diourbel":
        f *= _FROM_TOUBA.get(k, 1.0)
    else:
        f *= _TO_TOUBA.get(region, {}).get(k, 1.0)
    tabaski = min(_TABASKI_SN, key=lambda t: abs((d - t).days))
    j = (d - tabaski).days
    name = cal.name(d) or ""
    if -5 <= j <= 4:
        f *= (_HOME_FOR_TABASKI if region == "dakar" else _BACK_FROM_TABASKI).get(j, 1.0)
    elif name.startswith("Eid al-Fitr"):
        f *= 0.5
    elif any(cal.name(d + timedelta(days=i)).startswith("Eid al-Fitr") for i in (1, 2, 3)):
        f *= 1.4 if region == "dakar" else 1.0  # home for Korité
    elif name and "Magal" not in name:
        f *= 0.8
    if any(a <= d <= b for a, b in _SN_RAMADAN):
        f *= 0.9
    if _sn_rains(d):
        f *= _RAINS_HIT.get(region, 1.0)
    return f


def coaches_sn(seed: int) -> Estate:
    """Blind (thirty-first round): a Senegalese intercity booking app's coach and sept-place tickets per day by
    departure region (seven: Dakar 9,000 a day at its base level of January 2023 (a Tuesday x0.85), Thiès 3,200,
    Diourbel 2,400, Kaolack 1,800, Saint-Louis 1,500, Ziguinchor 700 and Tambacounda 420, some twenty-one times
    fewer; in an order set by the seed), on Senegal's holidays (the `holidays` package's SN: the Grand Magal of
    Touba among them, 2025's estimated on Tuesday 12 August, a day before the pilgrims kept it on Wednesday 13
    August; Tabaski 2025 estimated on Friday 6 June, kept on Saturday 7 June). The week (Dakar's Friday x1.35,
    Sunday x0.8; the regions' Sunday x1.4, the returns). The Magal (4 September 2023, 23 August 2024, 13 August
    2025, as kept): the pilgrims' journey in (Dakar x1.3 to x2.5 the four days before, x0.7 on the day; Thiès
    x1.4-2.0; Kaolack and Saint-Louis x1.3-1.5 the two days before), Diourbel's (Touba's) departures x0.8 the three
    days before, x1.5 on the day, x5.0, x3.5, x1.8, x1.2 the four after. Tabaski as kept (29 June 2023, 17 June
    2024, 7 June 2025): Dakar x1.4 to x2.8 the five days before, x0.3 on the day; the regions x0.9 before, x0.3 on
    the day, x1.2-2.6 the four days after (back to Dakar). Korité (the calendar's Eid al-Fitr) x0.5, Dakar x1.4 the
    three days before; another holiday (not the Magal) x0.8. In no calendar: Ramadan x0.9; the rainy season, its
    onset weeks apart (3 July 2023, 22 July 2024, 30 June 2025, to mid-October): Tambacounda x0.75, Ziguinchor x0.8,
    Kaolack x0.85. From Monday 20 January 2025 a Casamance coach company's departures are sold on the app
    (Ziguinchor x1.35, the others unmoved; accepted by the owner as a shift). The payment gateway failed most of
    Saturday 11 November 2023 (x0.3 everywhere; unlabelled, history only). Poisson counts with 5% extra noise per
    region; +8% a year. From Monday 2 January 2023 (1,003 days, to Tuesday 30 September 2025): from Monday 2
    September 2024 evaluated; categories "magal" (four days before to four after, as kept), "tabaski" (five days
    before to four after, as kept), "korite" (the calendar's Eid al-Fitr and the three days before), "ramadan",
    "holiday", "rains", "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SN")
    regions = _unequal(rng, list(_SN_DEPARTURES))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.3 if d == _GATEWAY_DOWN_SN else 1.0) * 1.08 ** (i / 365.25)
        values = []
        for r in regions:
            f = _coach_day(d, r, cal) * lift * (1.35 if r == "ziguinchor" and d >= _ZIGUINCHOR_PARTNER else 1.0)
            values.append(_poisson(rng, _SN_DEPARTURES[r] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        name = cal.name(d) or ""
        if d == _GATEWAY_DOWN_SN:
            incidents.add(at)
        elif any(-4 <= (d - m).days <= 4 for m in _MAGAL):
            cats[at] = "magal"
        elif any(-5 <= (d - t).days <= 4 for t in _TABASKI_SN):
            cats[at] = "tabaski"
        elif any(cal.name(d + timedelta(days=j)).startswith("Eid al-Fitr") for j in (0, 1, 2, 3)):
            cats[at] = "korite"
        elif name:
            cats[at] = "holiday"
        elif any(a <= d <= b for a, b in _SN_RAMADAN):
            cats[at] = "ramadan"
        elif _sn_rains(d):
            cats[at] = "rains"
    shift = datetime(_ZIGUINCHOR_PARTNER.year, _ZIGUINCHOR_PARTNER.month, _ZIGUINCHOR_PARTNER.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("coaches_sn", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Guatemalan remittance payer's payouts per day by channel, at its base level of July 2023: the rural
# cooperatives' network some eighteen times smaller than the bank's branches. The cooperatives' payouts reach the
# warehouse in one file a week, loaded on the week's first business day (Monday, or Tuesday after a Monday holiday)
# and stamped with its day: that channel holds no rows on the other days, and the file day every day's since the last
_GT_PAYOUTS = {"bank_branches": 24_000.0, "agents": 14_000.0, "wallet": 5_000.0, "coop_network": 1_300.0}
_GT_WEEK = {"bank_branches": [1.1, 0.95, 0.9, 0.95, 1.1, 1.2, 0.25],  # Monday first: Sunday's mall branches only
            "agents": [1.0, 0.9, 0.9, 0.95, 1.1, 1.3, 0.7], "wallet": [1.0, 0.95, 0.95, 1.0, 1.15, 1.2, 1.0],
            "coop_network": [1.0, 1.0, 1.0, 1.0, 1.1, 1.2, 0.3]}
_GT_HOLIDAY = {"bank_branches": 0.1, "agents": 0.6, "wallet": 0.95, "coop_network": 0.3}  # branches shut
_GT_LATE = {"bank_branches": 0.04, "agents": 0.15, "wallet": 0.3, "coop_network": 0.0}  # local 18:00-23:59's share
_GT_WEEKLY_FILE = "coop_network"
_GT_LOCAL_DAYS = date(2024, 6, 3)  # partitions keyed on local (UTC-6) days from this Monday on, on UTC days before
_GT_WALLET_PARTNER = date(2025, 3, 3)  # a US remitter starts paying out into the wallet (a Monday)
_GT_CORE_MIGRATION = date(2023, 11, 19)  # the bank's core system migrated over a Sunday: branches' payouts unrecorded


def _remesa_day(d: date, channel: str, cal: HolidayCalendar) -> float:
    """A channel's payouts over local day `d` against its ordinary Wednesday: the week, the holidays, Holy Week's
    run-up, Mother's Day (10 May) and December."""
    f = _GT_WEEK[channel][d.weekday()]
    if cal.name(d):
        f *= _GT_HOLIDAY[channel]
    easter = _easter(d.year)
    if 4 <= (easter - d).days <= 6:
        f *= 1.25  # Holy Week's Monday to Wednesday: money for the week's vacation
    if d.month == 5 and 6 <= d.day <= 10:
        f *= 1.35  # Mother's Day (in no calendar)
    if d.month == 12:
        f *= 1.15 if d.day < 15 else 1.45 if d.day <= 24 else 1.1
    return f


def remesas_gt(seed: int) -> Estate:
    """Blind (thirty-first round): a Guatemalan remittance payer's payouts per day by channel (four: bank branches
    24,000 a day at its base level of July 2023 (a Wednesday x0.9), agents 14,000, the wallet 5,000 and the rural
    cooperatives' network 1,300, some eighteen times smaller; in an order set by the seed), on Guatemala's holidays
    (the `holidays` package's GT: Maundy Thursday, Good Friday and Holy Saturday, Army Day on a Monday (1 July 2024,
    30 June 2025), Independence Day Monday 15 September 2025, Revolution Day Monday 20 October 2025). The week by
    channel (`_GT_WEEK`: Saturday's payouts highest, the branches' Sunday x0.25); a holiday: branches x0.1, agents
    x0.6, the wallet x0.95, the cooperatives x0.3. In no calendar: Holy Week's Monday to Wednesday x1.25, Mother's
    Day (6-10 May x1.35), December (to the 14th x1.15, 15-24 x1.45, 25-31 x1.1). The cooperatives' payouts land in
    one file a week, on its first business day (Monday, or Tuesday after a Monday holiday), stamped with that day
    and holding every day's payouts since the last file: that group is zero on the other six (or five) days. Until
    Sunday 2 June 2024 the warehouse keyed partitions on UTC days (local 18:00 the day before to 17:59: each
    channel's evening share, `_GT_LATE`, branches 4%, agents 15%, the wallet 30%, falls in the next partition); from
    Monday 3 June 2024 on local days (accepted by the owner; the switch day's partition holds 30 hours, from local
    18:00 on the Sunday). From Monday 3 March 2025 a US remitter pays out into the wallet (the wallet x1.3, the
    others unmoved; accepted by the owner as a shift). The bank's core system migration lost the branches' payouts
    of Sunday 19 November 2023 (x0.1; unlabelled, history only). Poisson counts with 4% extra noise per channel and
    partition; +9% a year. From Monday 3 July 2023 (842 days, to Tuesday 21 October 2025): from Monday 2 September
    2024 evaluated; categories "file_day" (the cooperatives' file on a Monday), "file_day_moved" (on the Tuesday
    after a Monday holiday), "holiday", "holy_week" (Monday to Wednesday before), "mothers_day" (6-10 May),
    "christmas" (15-31 December), "after_shift" (the four weeks after the step, file days kept as such)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GT")
    channels = _unequal(rng, list(_GT_PAYOUTS))
    start, n = date(2023, 7, 3), 842

    def mean(d: date, c: str) -> float:  # a channel's expected payouts over local day `d`
        f = _remesa_day(d, c, cal) * 1.09 ** ((d - start).days / 365.25)
        f *= 0.1 if c == "bank_branches" and d == _GT_CORE_MIGRATION else 1.0
        return _GT_PAYOUTS[c] * f * (1.3 if c == "wallet" and d >= _GT_WALLET_PARTNER else 1.0)

    series, cats, incidents = [], {}, set()
    pending = 0.0  # the cooperatives' payouts since their last file
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        before = d - timedelta(days=1)
        file_day = d.weekday() in (0, 1) and not cal.name(d) and (d.weekday() == 0 or cal.name(before))
        values = []
        for c in channels:
            if c == _GT_WEEKLY_FILE:
                lam, pending = (pending, 0.0) if file_day else (0.0, pending)
                pending += mean(d, c)
            elif d < _GT_LOCAL_DAYS:  # a UTC day: the evening before, the day to 17:59
                lam = _GT_LATE[c] * mean(before, c) + (1 - _GT_LATE[c]) * mean(d, c)
            else:
                lam = mean(d, c) + (_GT_LATE[c] * mean(before, c) if d == _GT_LOCAL_DAYS else 0.0)
            values.append(_poisson(rng, lam * math.exp(rng.gauss(0, 0.04))) if lam else 0.0)
        series.append((at, values))
        name = cal.name(d) or ""
        if d == _GT_CORE_MIGRATION:
            incidents.add(at)
        elif file_day:
            cats[at] = "file_day" if d.weekday() == 0 else "file_day_moved"
        elif name:
            cats[at] = "holiday"
        elif 4 <= (_easter(d.year) - d).days <= 6:
            cats[at] = "holy_week"
        elif d.month == 5 and 6 <= d.day <= 10:
            cats[at] = "mothers_day"
        elif d.month == 12 and d.day >= 15:
            cats[at] = "christmas"
    shift = datetime(_GT_WALLET_PARTNER.year, _GT_WALLET_PARTNER.month, _GT_WALLET_PARTNER.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("remesas_gt", "day", series, 427, cal, cats, [shift], incidents=incidents)


# an Omani hotel group's room-nights per week (Sunday to Saturday, keyed on its Sunday: Oman's working week) by
# property, at its base level of January 2022: the Wahiba Sands desert camp some nineteen times smaller than the
# Muscat hotel. The camp closes from May to September (the heat): no guests, zero, every year, and reopens in October
_OM_WEEK = {"muscat": 5_600.0, "salalah": 2_400.0, "nizwa": 1_500.0, "jebel_akhdar": 1_100.0, "sur": 900.0,
            "wahiba_camp": 300.0}
_WINTER_SUN = [1.0, 1.0, 0.92, 0.8, 0.64, 0.48, 0.48, 0.52, 0.6, 0.8, 0.96, 1.04]  # January first: Europe's winter
_CAMP_SEASON = {10: 0.6, 11: 0.85, 12: 1.0, 1: 1.0, 2: 0.95, 3: 0.8, 4: 0.5}  # open October to April
_DOMESTIC_WEEKEND = {"nizwa", "jebel_akhdar", "sur", "wahiba_camp"}  # Thursday's and Friday's nights x1.35
_KHAREEF = ((6, 21), (9, 21))  # Dhofar's monsoon season: the Gulf's summer visitors in a green Salalah
_OM_RAMADAN = [(date(2022, 4, 2), date(2022, 5, 1)), (date(2023, 3, 23), date(2023, 4, 20)),
               (date(2024, 3, 11), date(2024, 4, 8)), (date(2025, 3, 1), date(2025, 3, 29))]  # in no calendar
_EID_TRIPS = {"jebel_akhdar": 1.8, "salalah": 1.8, "sur": 1.8, "wahiba_camp": 1.5, "nizwa": 1.3, "muscat": 0.9}
_FESTIVE_EUROPE = ((12, 20), (1, 3))  # Christmas and New Year's European tourists (in no calendar)
_NIZWA_WING = date(2025, 4, 6)  # a sixty-room wing opens at the Nizwa hotel (a Sunday)
_SALALAH_PMS = date(2023, 7, 16)  # the week the channel manager failed to post Salalah's bookings (in part)


def _khareef(d: date) -> bool:
    return _KHAREEF[0] <= (d.month, d.day) <= _KHAREEF[1]


def _festive(d: date) -> bool:
    return (d.month, d.day) >= _FESTIVE_EUROPE[0] or (d.month, d.day) <= _FESTIVE_EUROPE[1]


def _om_night(d: date, hotel: str, cal: HolidayCalendar) -> float:
    """A property's room-nights on `d` against an ordinary January night: its season (Europe's winter sun, the
    Khareef, the mountain's summer, the camp's months), the weekend, Ramadan, the Eids and the other holidays."""
    if hotel == "wahiba_camp":
        f = _CAMP_SEASON.get(d.month, 0.0) * 1.25
    elif hotel == "salalah":
        f = 2.6 if _khareef(d) else 0.9 if d.month >= 10 or d.month <= 3 else 0.6
    elif hotel == "jebel_akhdar":
        f = 1.4 if 6 <= d.month <= 9 else 0.9
    else:
        f = _WINTER_SUN[d.month - 1] * 1.25
    if hotel in _DOMESTIC_WEEKEND:
        f *= 1.35 if d.weekday() in (3, 4) else 0.9
    elif hotel == "muscat":
        f *= 1.1 if d.weekday() in (6, 0, 1, 2) else 0.9  # the business week
    name = cal.name(d) or ""
    if name.startswith("Eid"):
        f *= _EID_TRIPS[hotel]
    elif any(a <= d <= b for a, b in _OM_RAMADAN):
        f *= 0.75 if hotel == "muscat" else 0.8 if hotel == "wahiba_camp" else 0.6
    elif name:
        f *= 0.95 if hotel == "muscat" else 1.2
    if _festive(d) and hotel in ("muscat", "nizwa", "sur", "wahiba_camp"):
        f *= 1.35
    return f / 7


def hotels_om_weekly(seed: int) -> Estate:
    """Blind (thirty-first round): an Omani hotel group's room-nights per week (Sunday to Saturday, keyed on its
    Sunday, Oman's working week) by property (six: Muscat 5,600 a week at its base level of January 2022 (each
    property's season multiplies it), Salalah 2,400, Nizwa 1,500, Jebel Akhdar 1,100, Sur 900 and the Wahiba Sands
    desert camp 300, some nineteen times smaller; in an order set by the seed), on Oman's holidays (the `holidays`
    package's OM: Eid al-Fitr's and Eid al-Adha's four or five days, the Islamic New Year, the Prophet's Birthday,
    the Sultan's Accession Day, National Day's two days). The winter-sun properties (Muscat, Nizwa, Sur) by month
    (`_WINTER_SUN`: x1.25 in January, x0.6 in June and July); Salalah x2.6 in the Khareef (21 June to 21 September,
    the Gulf's summer visitors; in no calendar), x0.9 from October to March, x0.6 otherwise; Jebel Akhdar x1.4 from
    June to September (the mountain's cool), x0.9 otherwise; the camp open October to April only (x0.75 in October
    to x1.25 from December to January, x0.63 in April) and at zero from May to September every year. Thursday's and
    Friday's nights x1.35 (the others x0.9) at Nizwa, Jebel Akhdar, Sur and the camp; Muscat's business week (Sunday
    to Wednesday x1.1, the others x0.9). An Eid day: Jebel Akhdar, Salalah and Sur x1.8, the camp x1.5, Nizwa x1.3,
    Muscat x0.9; another holiday x1.2 (Muscat x0.95). In no calendar: Ramadan (Muscat x0.75, the camp x0.8, the
    others x0.6); Christmas and New Year's European tourists (20 December to 3 January: Muscat, Nizwa, Sur and the
    camp x1.35). From the week of Sunday 6 April 2025 a sixty-room wing opens at the Nizwa hotel (Nizwa x1.4, the
    others unmoved; accepted by the owner as a shift). The channel manager posted 40% of Salalah's bookings for the
    week of Sunday 16 July 2023 (an unlabelled incident, history only). 4% noise per property and week; +4% a year.
    From Sunday 2 January 2022 (208 weeks, to the week of Sunday 21 December 2025): three years read, from Sunday 29
    December 2024 evaluated (52 weeks); categories "eid" (a week holding an Eid day), "ramadan", "christmas" (a week
    holding 20 December to 3 January), "holiday", "camp_reopening" (a week holding 1-21 October), "khareef",
    "camp_closed" (the other weeks of May to September), "after_shift" (the three weeks after the step, whatever
    else they hold)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="OM")
    hotels = _unequal(rng, list(_OM_WEEK))
    series = _weekly_sums(rng, date(2022, 1, 2), 208, hotels, _OM_WEEK, lambda d, h: _om_night(d, h, cal),
                          growth=1.04, noise=0.04, step=("nizwa", _NIZWA_WING, 1.4),
                          loss=("salalah", _SALALAH_PMS, 0.4))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_SALALAH_PMS.year, _SALALAH_PMS.month, _SALALAH_PMS.day)}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        if at in incidents:
            continue
        if any((cal.name(d) or "").startswith("Eid") for d in days):
            cats[at] = "eid"
        elif any(a <= d <= b for d in days for a, b in _OM_RAMADAN):
            cats[at] = "ramadan"
        elif any(_festive(d) for d in days):
            cats[at] = "christmas"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
        elif any(d.month == 10 and d.day <= 21 for d in days):
            cats[at] = "camp_reopening"
        elif any(_khareef(d) for d in days):
            cats[at] = "khareef"
        elif any(5 <= d.month <= 9 for d in days):
            cats[at] = "camp_closed"
    shift = datetime(_NIZWA_WING.year, _NIZWA_WING.month, _NIZWA_WING.day)
    for k in range(1, 4):
        cats[shift + timedelta(weeks=k)] = "after_shift"
    return Estate("hotels_om_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Maltese ferry operators' gangway validations (a ticket or pass scanned on boarding) per local hour by route, at an
# ordinary weekday's 08:00 of November 2025: the Three Cities harbour ferry some eleven times smaller than the
# Ċirkewwa-Mġarr car ferry to Gozo. The car ferry sails round the clock (a night crossing every ninety minutes); the
# Valletta-Gozo fast ferry 06:00-20:59 and the two harbour ferries 07:00-18:59 only (zero outside their hours)
_MT_PEAK = {"cirkewwa_mgarr": 900.0, "sliema_valletta": 210.0, "valletta_gozo_fast": 160.0, "three_cities": 80.0}
_MT_HOURS = [0.12, 0.06, 0.04, 0.04, 0.08, 0.3, 0.7, 0.95, 1.0, 0.8, 0.65, 0.6, 0.65, 0.65, 0.7, 0.8, 0.9, 0.85,
             0.65, 0.45, 0.35, 0.3, 0.22, 0.16]  # a weekday's hours, local midnight first
_MT_SERVICE = {"cirkewwa_mgarr": range(24), "valletta_gozo_fast": range(6, 21), "sliema_valletta": range(7, 19),
               "three_cities": range(7, 19)}
_MT_NIGHT = range(6)  # only the car ferry sails
_MT_BERTH_WORKS = (date(2025, 11, 17), date(2025, 12, 5))  # Mġarr's fast-ferry berth closed for repairs (no calendar)
_MT_BERTH_DIVERTED = 0.85  # of the fast ferry's passengers, the share who cross on the car ferry instead
_MT_BERTH_RETURN = {date(2025, 12, 6): 0.7, date(2025, 12, 7): 0.9}  # the fast ferry's first days back
_MT_GREGALE = (date(2025, 12, 3), range(9, 17))  # a north-easterly gale: the harbour ferries stay in, Gozo x0.5
_MT_XMAS_LIGHTS = date(2025, 11, 29)  # from this Saturday, Valletta's Christmas lights and market (no calendar)
_MT_XMAS_EVENINGS = range(16, 19)  # Friday's and Saturday's evening crossings to Valletta x1.5
_MT_SECOND_BOAT = datetime(2025, 12, 10, 7)  # local: a second boat on the Three Cities route (x1.45)
_MT_TICKETING_DOWN = (date(2025, 11, 12), range(9, 12))  # the validators' backend down: scans lost (x0.2)


def _mt_hour(local: datetime, route: str, cal: HolidayCalendar) -> float:
    """A route's validations in a local hour against an ordinary weekday's 08:00: its service hours, the week (the
    Gozo weekend's day-trippers out on Saturday, home on Sunday evening; the harbour ferries' commuters), a holiday,
    the fast-ferry berth's closure and return, the gale, the Christmas evenings, the second boat and a trend."""
    d, h = local.date(), local.hour
    if h not in _MT_SERVICE[route]:
        return 0.0
    f = _MT_HOURS[h]
    weekend = 6 if cal.name(d) else d.weekday()
    if route == "cirkewwa_mgarr":
        f *= 1.25 if weekend == 5 else (1.5 if 16 <= h <= 20 else 1.0) if weekend == 6 else 1.0
    elif route == "valletta_gozo_fast":
        f *= 0.9 if weekend >= 5 else 1.0
    else:
        f *= 0.8 if weekend == 5 else 0.7 if weekend == 6 else 1.0
    closed = _MT_BERTH_WORKS[0] <= d <= _MT_BERTH_WORKS[1]
    if route == "valletta_gozo_fast":
        f *= 0.0 if closed else _MT_BERTH_RETURN.get(d, 1.0)
    elif route == "cirkewwa_mgarr" and closed and h in _MT_SERVICE["valletta_gozo_fast"]:
        # the fast ferry's passengers (its peak against the car ferry's) take the bus to Ċirkewwa
        f += _MT_BERTH_DIVERTED * _MT_HOURS[h] * _MT_PEAK["valletta_gozo_fast"] / _MT_PEAK["cirkewwa_mgarr"]
    if d == _MT_GREGALE[0] and h in _MT_GREGALE[1]:
        f *= 0.5 if route == "cirkewwa_mgarr" else 0.0
    if route == "sliema_valletta" and d >= _MT_XMAS_LIGHTS and d.weekday() in (4, 5) and h in _MT_XMAS_EVENINGS:
        f *= 1.5
    if route == "three_cities" and local >= _MT_SECOND_BOAT:
        f *= 1.45
    return f * 0.997 ** (d - date(2025, 10, 27)).days  # the season's last visitors leave: -0.3% a day


def ferries_valletta_hourly(seed: int) -> Estate:
    """Blind (thirty-second round): Maltese ferry operators' gangway validations per local hour by route (four: the
    Ċirkewwa-Mġarr car ferry to Gozo 900 at an ordinary weekday's 08:00 of November 2025, Sliema-Valletta 210, the
    Valletta-Gozo fast ferry 160 and the Three Cities harbour ferry 80, some eleven times smaller; in an order set by
    the seed), in Europe/Malta (one hour ahead of UTC from Monday 27 October 2025, the day after the clocks went back:
    every point on the hour), on Malta's holidays (the `holidays` package's MT: the Immaculate Conception Monday 8
    December and Republic Day Saturday 13 December 2025). The car ferry sails every hour of the day; the fast ferry
    06:00-20:59 and the harbour ferries 07:00-18:59 only (each zero outside its hours, a partition every hour). A
    weekday's shape (`_MT_HOURS`: 08:00 the peak, 03:00 x0.04); Saturdays the car ferry x1.25 (day-trippers to Gozo),
    Sundays and holidays its 16:00-20:59 x1.5 (home again), the fast ferry x0.9 at weekends, the harbour ferries
    x0.8 on Saturdays and x0.7 on Sundays and holidays. In no calendar: the fast-ferry berth at Mġarr closed for
    repairs from Monday 17 November to Friday 5 December (the fast ferry at zero every hour; 85% of its passengers on
    the car ferry instead, in the fast ferry's hours), back at x0.7 on Saturday 6 and x0.9 on Sunday 7 December; a
    north-easterly gale on Wednesday 3 December 09:00-16:59 (the harbour ferries in port, zero; the car ferry x0.5);
    Valletta's Christmas lights from Saturday 29 November (Sliema-Valletta's Friday and Saturday 16:00-18:59 x1.5);
    -0.3% a day as the season's last visitors leave. From Wednesday 10 December 07:00 a second boat on the Three
    Cities route (x1.45, the others unmoved; accepted by the owner as a shift). The validators' backend was down on
    Wednesday 12 November 09:00-11:59 (x0.2 everywhere, scans lost; unlabelled incidents, history only). Poisson
    counts with 6% extra noise per hour and route. From Monday 27 October 2025 00:00 (49 days, to Sunday 14 December
    23:00): 35 days of history, from Monday 1 December 00:00 evaluated (14 days); categories "gregale" (the gale's
    hours), "holiday" (a holiday's hours), "berth_closed" (the closure's hours), "berth_reopened" (the fast ferry's
    first two days back), "christmas_evening" (the Christmas evenings' hours), "night" (00:00-05:59, the car ferry
    alone), "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Europe/Malta"
    cal = HolidayCalendar(country="MT")
    tz = ZoneInfo(zone)
    routes = _unequal(rng, list(_MT_PEAK))
    start, first = date(2025, 10, 27), date(2025, 12, 1)
    series, cats, incidents = [], {}, set()
    for k in range(49):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            down = d == _MT_TICKETING_DOWN[0] and h in _MT_TICKETING_DOWN[1]
            values = []
            for r in routes:
                lam = _MT_PEAK[r] * _mt_hour(local, r, cal) * (0.2 if down else 1.0)
                values.append(_poisson(rng, lam * math.exp(rng.gauss(0, 0.06))) if lam else 0.0)
            at = _utc_hour(local, tz)
            series.append((at, values))
            if down:
                incidents.add(at)
            elif d == _MT_GREGALE[0] and h in _MT_GREGALE[1]:
                cats[at] = "gregale"
            elif cal.name(d):
                cats[at] = "holiday"
            elif _MT_BERTH_WORKS[0] <= d <= _MT_BERTH_WORKS[1]:
                cats[at] = "berth_closed"
            elif d in _MT_BERTH_RETURN:
                cats[at] = "berth_reopened"
            elif d >= _MT_XMAS_LIGHTS and d.weekday() in (4, 5) and h in _MT_XMAS_EVENINGS:
                cats[at] = "christmas_evening"
            elif h in _MT_NIGHT:
                cats[at] = "night"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_MT_SECOND_BOAT, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("ferries_valletta_hourly", "hour", series, stamps.index(tail), cal, cats, [shift], timezone=zone,
                  incidents=incidents)


# a Malawian mobile-money network's agent cash-outs per day by region, at its base level of January 2023 (a Monday):
# Karonga's agents some eighteen times fewer than Lilongwe's
_MW_CASHOUTS = {"lilongwe": 22_000.0, "blantyre": 16_000.0, "mzuzu": 6_000.0, "zomba": 4_500.0, "kasungu": 3_000.0,
                "karonga": 1_200.0}
_MW_WEEK = [1.0, 0.92, 0.92, 0.97, 1.12, 1.2, 0.62]  # Monday first: Friday's and Saturday's markets, a quiet Sunday
# the tobacco auction floors' season by year (in no calendar): its opening moves by weeks with the rains and the
# crop's curing; the growers' sales paid into wallets and cashed out at the agents
_MW_TOBACCO = {2023: (date(2023, 4, 17), date(2023, 8, 25)), 2024: (date(2024, 3, 25), date(2024, 8, 9)),
               2025: (date(2025, 4, 14), date(2025, 8, 22))}
_MW_TOBACCO_HIT = {"kasungu": 1.7, "mzuzu": 1.2, "lilongwe": 1.15, "karonga": 1.1}
_MW_LEAN_MONTHS = (12, 1, 2)  # the lean season before the harvest (in no calendar): the rural regions x0.85
_MW_LEAN_HIT = {"kasungu": 0.85, "karonga": 0.85, "zomba": 0.85}
_MW_MONTH_TURN = 25  # salaries from the 25th to the 2nd of the next month (in no calendar): x1.2
# the general election, Tuesday 16 September 2025, declared a public holiday weeks before (in no calendar): cash
# drawn the day before, the shops shut while the country votes
_MW_ELECTION = date(2025, 9, 16)
_MW_ELECTION_DAYS = {-1: 1.35, 0: 0.45}
_MW_BANK_AGENTS = date(2025, 3, 10)  # a bank's agents join the network in Blantyre (a Monday)
_MW_SWITCH_DOWN = date(2023, 12, 8)  # the network's switch down most of a Friday (few cash-outs)


def _mw_tobacco(d: date) -> bool:
    first, last = _MW_TOBACCO.get(d.year, (d, d - timedelta(days=1)))
    return first <= d <= last


def _mw_month_turn(d: date) -> bool:
    return d.day >= _MW_MONTH_TURN or d.day <= 2


def _mw_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's agent cash-outs on `d` against its ordinary Monday: the week, a holiday, the salaries' month turn,
    the tobacco floors, the lean season and the election."""
    f = _MW_WEEK[d.weekday()]
    if cal.name(d):
        f *= 0.55
    if _mw_month_turn(d):
        f *= 1.2
    if _mw_tobacco(d):
        f *= _MW_TOBACCO_HIT.get(region, 1.0)
    if d.month in _MW_LEAN_MONTHS:
        f *= _MW_LEAN_HIT.get(region, 1.0)
    return f * _MW_ELECTION_DAYS.get((d - _MW_ELECTION).days, 1.0)


def agents_mw(seed: int) -> Estate:
    """Blind (thirty-second round): a Malawian mobile-money network's agent cash-outs per day by region (six:
    Lilongwe 22,000 at its base level of January 2023 (a Monday), Blantyre 16,000, Mzuzu 6,000, Zomba 4,500, Kasungu
    3,000 and Karonga 1,200, some eighteen times fewer; in an order set by the seed), on Malawi's holidays (the
    `holidays` package's MW: John Chilembwe Day, Martyrs Day, Kamuzu Day, Independence Day and its Monday observed,
    Mother's Day Wednesday 15 October 2025, Easter's Friday and Monday). The week (`_MW_WEEK`: Saturday x1.2, Sunday
    x0.62); a holiday x0.55. In no calendar: the salaries' month turn (the 25th to the 2nd, x1.2); the tobacco auction
    floors' season, its opening weeks apart between years (17 April to 25 August 2023, 25 March to 9 August 2024, 14
    April to 22 August 2025): Kasungu x1.7, Mzuzu x1.2, Lilongwe x1.15, Karonga x1.1; the lean season (December to
    February: Kasungu, Karonga and Zomba x0.85); the general election of Tuesday 16 September 2025, declared a public
    holiday weeks before and in no calendar of the package (x0.45 on the day, x1.35 the Monday before). From Monday 10
    March 2025 a bank's agents join the network in Blantyre (Blantyre x1.3, the others unmoved; accepted by the
    owner as a shift). The network's switch failed most of Friday 8 December 2023 (x0.25 everywhere; unlabelled,
    history only). Poisson counts with 5% extra noise per region; +12% a year. From Monday 2 January 2023 (1,030
    days, to Tuesday 28 October 2025): from Monday 2 September 2024 evaluated; categories "election" (the day before
    and the day), "holiday", "month_turn", "tobacco_season", "lean_season", "after_shift" (the four weeks after the
    step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MW")
    regions = _unequal(rng, list(_MW_CASHOUTS))
    start, n = date(2023, 1, 2), 1030
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.25 if d == _MW_SWITCH_DOWN else 1.0) * 1.12 ** (i / 365.25)
        values = []
        for r in regions:
            f = _mw_day(d, r, cal) * lift * (1.3 if r == "blantyre" and d >= _MW_BANK_AGENTS else 1.0)
            values.append(_poisson(rng, _MW_CASHOUTS[r] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        if d == _MW_SWITCH_DOWN:
            incidents.add(at)
        elif (d - _MW_ELECTION).days in _MW_ELECTION_DAYS:
            cats[at] = "election"
        elif cal.name(d):
            cats[at] = "holiday"
        elif _mw_month_turn(d):
            cats[at] = "month_turn"
        elif _mw_tobacco(d):
            cats[at] = "tobacco_season"
        elif d.month in _MW_LEAN_MONTHS:
            cats[at] = "lean_season"
    shift = datetime(_MW_BANK_AGENTS.year, _MW_BANK_AGENTS.month, _MW_BANK_AGENTS.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("agents_mw", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Jamaican mobile operator's prepaid data-plan renewals per day by plan, at its base level of January 2023 (a
# Monday): roaming passes some twenty-one times fewer than the daily plan's
_JM_RENEWALS = {"daily_data": 30_000.0, "weekly_data": 14_000.0, "social_bundle": 9_000.0, "monthly_data": 5_000.0,
                "roaming": 1_400.0}
_JM_WEEK = {"daily_data": [0.95, 0.95, 0.95, 1.0, 1.15, 1.15, 0.85], "weekly_data": [0.9, 0.9, 0.9, 0.95, 1.35, 1.1, 0.9],
            "social_bundle": [0.95, 0.95, 0.95, 0.95, 1.0, 1.1, 1.15], "monthly_data": [1.0] * 7,
            "roaming": [0.9, 0.9, 0.9, 1.0, 1.2, 1.1, 1.0]}  # Monday first: Friday's payday for the weekly plan
_JM_GROWTH = {"daily_data": 1.08, "weekly_data": 0.96, "social_bundle": 1.03, "monthly_data": 1.1, "roaming": 1.05}
_JM_PAYDAY = 25  # the public sector's salaries from the 25th (in no calendar): the monthly plan x1.7, daily x1.1
_JM_MONTH_START = 3  # the 1st-3rd: the monthly plan's late renewals x1.2
_JM_HOLIDAY = {"daily_data": 0.85, "weekly_data": 0.85, "social_bundle": 1.1, "monthly_data": 0.9, "roaming": 1.0}
_JM_CHRISTMAS = {"social_bundle": 1.25, "roaming": 1.7, "daily_data": 1.1}  # 15-31 December (in no calendar)
_JM_SUMMER_ROAMING = 1.35  # July and August: Jamaicans travelling abroad (in no calendar)
# the weekly plan's price rise, applied by customer cohort over a fortnight from Monday 7 April 2025: its renewals
# step down a fourteenth of the way each day to x0.75 (some move to the daily plan, up to x1.06); the owner accepts it
_JM_PRICE_RISE = date(2025, 4, 7)
_JM_RAMP_DAYS = 14
_JM_WEEKLY_AFTER, _JM_DAILY_AFTER = 0.75, 1.06
_JM_TOPUP_DOWN = date(2024, 3, 5)  # the top-up platform down most of a Tuesday (x0.3)


def _jm_ramp(d: date) -> float:
    """The share of the price rise's cohorts moved by `d`: 0 before, k/13 on its k-th day (0-based), 1 after."""
    k = (d - _JM_PRICE_RISE).days
    return 0.0 if k < 0 else min(1.0, k / (_JM_RAMP_DAYS - 1))


def _jm_day(d: date, plan: str, cal: HolidayCalendar) -> float:
    """A plan's renewals on `d` against its ordinary Monday: the week, payday, the month's start, a holiday,
    Christmas, the summer's travel and the price rise's ramp."""
    f = _JM_WEEK[plan][d.weekday()]
    if d.day >= _JM_PAYDAY:
        f *= 1.7 if plan == "monthly_data" else 1.1 if plan == "daily_data" else 1.0
    elif d.day <= _JM_MONTH_START and plan == "monthly_data":
        f *= 1.2
    if cal.name(d):
        f *= _JM_HOLIDAY[plan]
    if d.month == 12 and d.day >= 15:
        f *= _JM_CHRISTMAS.get(plan, 1.0)
    if plan == "roaming" and d.month in (7, 8):
        f *= _JM_SUMMER_ROAMING
    moved = _jm_ramp(d)
    if plan == "weekly_data":
        f *= 1 + moved * (_JM_WEEKLY_AFTER - 1)
    elif plan == "daily_data":
        f *= 1 + moved * (_JM_DAILY_AFTER - 1)
    return f


def renewals_jm(seed: int) -> Estate:
    """Blind (thirty-second round): a Jamaican mobile operator's prepaid data-plan renewals per day by plan (five: the
    daily plan 30,000 at its base level of January 2023 (a Monday), the weekly plan 14,000, the social bundle 9,000,
    the monthly plan 5,000 and roaming passes 1,400, some twenty-one times fewer; in an order set by the seed), on
    Jamaica's holidays (the `holidays` package's JM: Ash Wednesday 5 March 2025, Good Friday, Easter Monday, National
    Labour Day, Emancipation Day 1 August, Independence Day 6 August, National Heroes Day Monday 20 October 2025,
    Christmas and Boxing Day). Each plan its week (`_JM_WEEK`: the weekly plan's Friday x1.35, the daily plan's
    Sunday x0.85, the social bundle's Sunday x1.15) and its trend (the daily plan +8% a year, the weekly plan -4%,
    the social bundle +3%, the monthly plan +10%, roaming +5%); a holiday: the daily and weekly plans x0.85, the
    monthly plan x0.9, the social bundle x1.1. In no calendar: payday from the 25th (the monthly plan x1.7, the daily
    plan x1.1) and the month's first three days (the monthly plan x1.2); Christmas (15-31 December: the social
    bundle x1.25, roaming x1.7, the daily plan x1.1); the summer's travel (July and August: roaming x1.35). The
    weekly plan's price rise, applied by customer cohort over the fortnight from Monday 7 April 2025: its renewals
    step down a thirteenth of the way each day to x0.75 on Sunday 20 April (the daily plan up to x1.06 as some
    move to it), the others unmoved; a ramp the owner accepts as a shift on its first day. The top-up platform
    failed most of Tuesday 5 March 2024 (x0.3 everywhere; unlabelled, history only). Poisson counts with 5% extra
    noise per plan. From Monday 2 January 2023 (1,002 days, to Monday 29 September 2025): from Monday 2 September
    2024 evaluated; categories "payday" (the 25th to the month's end), "month_start" (the 1st-3rd), "christmas",
    "holiday", "summer_travel" (July and August), "after_shift" (the ramp's fortnight and four weeks after it,
    where no other category names the day)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="JM")
    plans = _unequal(rng, list(_JM_RENEWALS))
    start, n = date(2023, 1, 2), 1002
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        down = 0.3 if d == _JM_TOPUP_DOWN else 1.0
        values = [_poisson(rng, _JM_RENEWALS[p] * _jm_day(d, p, cal) * _JM_GROWTH[p] ** (i / 365.25) * down
                           * math.exp(rng.gauss(0, 0.05))) for p in plans]
        series.append((at, values))
        if d == _JM_TOPUP_DOWN:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif d.month == 12 and d.day >= 15:
            cats[at] = "christmas"
        elif d.day >= _JM_PAYDAY:
            cats[at] = "payday"
        elif d.day <= _JM_MONTH_START:
            cats[at] = "month_start"
        elif d.month in (7, 8):
            cats[at] = "summer_travel"
    shift = datetime(_JM_PRICE_RISE.year, _JM_PRICE_RISE.month, _JM_PRICE_RISE.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), _JM_RAMP_DAYS + 28, first=1)
    return Estate("renewals_jm", "day", series, 609, cal, cats, [shift], incidents=incidents)


# an Algerian dairy's sachet-milk crates delivered per week (Saturday to Friday, keyed on its Saturday: the week as
# Algeria counts it, the Friday its day of rest) by depot, at its base level of January 2022: Tamanrasset's depot
# some twenty-three times smaller than Algiers'
_DZ_CRATES = {"alger": 42_000.0, "oran": 26_000.0, "constantine": 18_000.0, "setif": 12_000.0, "bejaia": 8_000.0,
              "ouargla": 4_000.0, "tamanrasset": 1_800.0}
_DZ_WEEK = [1.0, 1.0, 1.0, 1.0, 0.55, 1.1, 1.0]  # Monday first: Friday's shops shut for the prayer, Saturday's restock
_DZ_RAMADAN = [(date(2022, 4, 2), date(2022, 5, 1)), (date(2023, 3, 23), date(2023, 4, 20)),
               (date(2024, 3, 11), date(2024, 4, 9)), (date(2025, 3, 1), date(2025, 3, 29))]  # in no calendar
_DZ_RAMADAN_LIFT = 1.4  # the iftar's milk and lben
_DZ_EID = {"Eid al-Fitr": 0.4, "Eid al-Adha": 0.5}  # the shops shut for the feast
_DZ_SUMMER = ((7, 15), (8, 31))  # the holidaymakers on the coast, the south's heat (in no calendar)
_DZ_SUMMER_HIT = {"bejaia": 1.35, "oran": 1.2, "alger": 1.05, "ouargla": 0.75, "tamanrasset": 0.8}
_DZ_BORDJ_ROUTE = date(2025, 10, 4)  # the Sétif depot takes over Bordj Bou Arréridj's shops (a Saturday)
_DZ_TRUCKERS_STRIKE = date(2023, 2, 11)  # the week Constantine's drivers struck (deliveries x0.55)


def _dz_summer(d: date) -> bool:
    return _DZ_SUMMER[0] <= (d.month, d.day) <= _DZ_SUMMER[1]


def _dz_day(d: date, depot: str, cal: HolidayCalendar) -> float:
    """A depot's crates on `d` against an ordinary weekday: the week, Ramadan, the Eids, the other holidays (the
    Amazigh New Year among them) and the summer."""
    f = _DZ_WEEK[d.weekday()]
    name = cal.name(d) or ""
    eid = next((v for k, v in _DZ_EID.items() if name.startswith(k)), None)
    if eid is not None:
        f *= eid
    elif any(a <= d <= b for a, b in _DZ_RAMADAN):
        f *= _DZ_RAMADAN_LIFT
    elif name:
        f *= 0.8
    if _dz_summer(d):
        f *= _DZ_SUMMER_HIT.get(depot, 1.0)
    return f / 7


def milk_dz_weekly(seed: int) -> Estate:
    """Blind (thirty-second round): an Algerian dairy's sachet-milk crates delivered per week (Saturday to Friday,
    keyed on its Saturday, the week as Algeria counts it) by depot (seven: Algiers 42,000 a week at its base level of
    January 2022, Oran 26,000, Constantine 18,000, Sétif 12,000, Béjaïa 8,000, Ouargla 4,000 and Tamanrasset 1,800,
    some twenty-three times smaller; in an order set by the seed), on Algeria's holidays (the `holidays` package's DZ:
    the Amazigh New Year on 12 January, Eid al-Fitr's three days and Eid al-Adha's three (estimated), the Islamic New
    Year, Ashura, the Prophet's Birthday, Independence Day 5 July, Revolution Day 1 November). The week (Friday x0.55,
    the shops shut for the prayer; Saturday x1.1, the restock); an Eid al-Fitr day x0.4, an Eid al-Adha day x0.5,
    another holiday x0.8. In no calendar: Ramadan (2 April 2022, 23 March 2023, 11 March 2024, 1 March 2025, to the
    eve of the Eid: x1.4, the iftar's milk); the summer (15 July to 31 August: Béjaïa x1.35, Oran x1.2, Algiers x1.05,
    Ouargla x0.75, Tamanrasset x0.8). From the week of Saturday 4 October 2025 the Sétif depot takes over Bordj Bou
    Arréridj's shops (Sétif x1.35, the others unmoved; accepted by the owner as a shift). Constantine's drivers struck
    the week of Saturday 11 February 2023 (Constantine x0.55; an unlabelled incident, history only). 3.5% noise per
    depot and week; +3% a year. From Saturday 1 January 2022 (208 weeks, to the week of Saturday 20 December 2025):
    three years read, from Saturday 28 December 2024 evaluated (52 weeks); categories "eid" (a week holding an Eid
    day), "ramadan" (a week holding a day of Ramadan), "holiday", "summer" (a week holding a day of 15 July to 31
    August), "after_shift" (the three weeks after the step, whatever else they hold)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="DZ")
    depots = _unequal(rng, list(_DZ_CRATES))
    series = _weekly_sums(rng, date(2022, 1, 1), 208, depots, _DZ_CRATES, lambda d, g: _dz_day(d, g, cal),
                          growth=1.03, noise=0.035, step=("setif", _DZ_BORDJ_ROUTE, 1.35),
                          loss=("constantine", _DZ_TRUCKERS_STRIKE, 0.55))
    cats: dict[datetime, str] = {}
    incidents = {datetime(_DZ_TRUCKERS_STRIKE.year, _DZ_TRUCKERS_STRIKE.month, _DZ_TRUCKERS_STRIKE.day)}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        if at in incidents:
            continue
        if any((cal.name(d) or "").startswith(tuple(_DZ_EID)) for d in days):
            cats[at] = "eid"
        elif any(a <= d <= b for d in days for a, b in _DZ_RAMADAN):
            cats[at] = "ramadan"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
        elif any(_dz_summer(d) for d in days):
            cats[at] = "summer"
    shift = datetime(_DZ_BORDJ_ROUTE.year, _DZ_BORDJ_ROUTE.month, _DZ_BORDJ_ROUTE.day)
    for k in range(1, 4):
        cats[shift + timedelta(weeks=k)] = "after_shift"
    return Estate("milk_dz_weekly", "day", series, 156, cal, cats, [shift], incidents=incidents)


# a Tegucigalpa pharmacy chain's sales (tickets) per local hour by branch network, at an ordinary weekday's 18:00 of
# September 2025: the bus terminal's branch some twenty-one times smaller than the neighbourhoods' (colonias') network
_HN_PEAK = {"colonias": 420.0, "malls": 310.0, "hospital": 260.0, "delivery": 150.0, "terminal": 20.0}
_HN_HOURS = [0.15, 0.1, 0.08, 0.07, 0.08, 0.15, 0.35, 0.6, 0.85, 0.9, 0.85, 0.8, 0.8, 0.75, 0.7, 0.75, 0.85, 0.95,
             1.0, 0.95, 0.8, 0.6, 0.4, 0.25]  # a weekday's hours, local midnight first
_HN_MALL_HOURS = (range(9, 21), range(10, 20))  # the malls' branches: Monday-Saturday, Sunday (no sales outside)
# the colonias' night shift: open until 02:00 (closed 02:00-05:59), then from Monday 8 September 2025 (insecurity on
# the night rounds) closed from 22:00 to 05:59: the night shift four hours shorter, its customers to the delivery app
_HN_NIGHT_CUT = date(2025, 9, 8)
_HN_COLONIAS_OPEN = (frozenset(range(24)) - frozenset(range(2, 6)), frozenset(range(6, 22)))
_HN_DELIVERY_NIGHT = (frozenset((22, 23, 0, 1)), 1.3)  # the delivery app's late hours after the cut
_HN_NIGHT = frozenset((22, 23, 0, 1, 2, 3, 4, 5))  # the category "night": the colonias shut, the malls too
_HN_PAYDAYS = (15, 30)  # the quincena (in no calendar): its 17:00-20:59 x1.3 in the colonias and the malls
_HN_PAYDAY_HOURS = range(17, 21)
# a national team's qualifier on Friday 10 October 2025 20:00-21:59 (in no calendar): the streets empty while it
# plays (x0.6 in the colonias, the malls and the delivery app), the delivery app's 22:00 after it x1.4
_HN_MATCH = (date(2025, 10, 10), range(20, 22), 22)
_HN_HOSPITAL_BRANCH = datetime(2025, 10, 9, 8)  # local: a new branch by the hospital (the hospital network x1.35)
_HN_POS_DOWN = (date(2025, 9, 10), range(14, 17))  # the point-of-sale system down: tickets unrecorded (x0.2)


def _hn_hour(local: datetime, network: str, cal: HolidayCalendar) -> float:
    """A network's tickets in a local hour against an ordinary weekday's 18:00: its open hours (the colonias' night
    shift before and after the cut, the malls' shop hours), the week, a holiday (the city empties for Morazán's
    week), the quincena's evenings, the qualifier and the new hospital branch."""
    d, h = local.date(), local.hour
    cut = d >= _HN_NIGHT_CUT
    if network == "colonias" and h not in _HN_COLONIAS_OPEN[cut]:
        return 0.0
    if network == "malls" and h not in _HN_MALL_HOURS[d.weekday() == 6]:
        return 0.0
    f = _HN_HOURS[h]
    if network == "delivery" and cut and h in _HN_DELIVERY_NIGHT[0]:
        f *= _HN_DELIVERY_NIGHT[1]
    if d.weekday() == 5:
        f *= 1.0 if network == "hospital" else 0.9
    elif d.weekday() == 6:
        f *= 1.15 if network == "malls" else 1.0 if network == "hospital" else 0.7
    if cal.name(d):
        f *= 0.9 if network == "hospital" else 0.65
    if d.day in _HN_PAYDAYS and h in _HN_PAYDAY_HOURS and network in ("colonias", "malls"):
        f *= 1.3
    if d == _HN_MATCH[0]:
        if h in _HN_MATCH[1] and network != "hospital":
            f *= 0.6
        elif h == _HN_MATCH[2] and network == "delivery":
            f *= 1.4
    if network == "hospital" and local >= _HN_HOSPITAL_BRANCH:
        f *= 1.35
    return f


def pharmacies_tegucigalpa_hourly(seed: int) -> Estate:
    """Blind (thirty-third round): a Tegucigalpa pharmacy chain's sales tickets per local hour by branch network
    (five: the neighbourhoods' (colonias') branches 420 at an ordinary weekday's 18:00 of September 2025, the malls'
    310, the branches by the hospitals 260, the delivery app 150 and the bus terminal's branch 20, some twenty-one
    times smaller; in an order set by the seed), in America/Tegucigalpa, six hours behind UTC all year (no daylight
    saving: every point on the hour), on Honduras's holidays (the `holidays` package's HN: Independence Day Monday 15
    September and the Morazán Weekend Wednesday 1 to Friday 3 October 2025, the city emptying to the beaches: x0.65,
    the hospital branches x0.9). The hospitals', the delivery app's and the terminal's branches sell round the clock;
    the malls' 09:00-20:59 (Sundays 10:00-19:59) only, zero outside; the colonias' until 02:00 (closed 02:00-05:59)
    until Sunday 7 September, then (in no calendar: the night shift cut, insecurity on the rounds) closed 22:00-05:59
    from Monday 8 September, four hours shorter, the delivery app's 22:00-01:59 x1.3 as their customers order
    instead. A weekday's shape (`_HN_HOURS`: 18:00 the peak, 03:00 x0.07); Saturdays x0.9 (the hospitals' x1.0),
    Sundays x0.7 (the malls' x1.15, the hospitals' x1.0). In no calendar: the quincena, the 15th and the 30th
    (17:00-20:59 x1.3 in the colonias and the malls); a national team's qualifier on Friday 10 October 20:00-21:59
    (x0.6 but in the hospital branches; the delivery app's 22:00 after it x1.4). From Thursday 9 October 08:00 a new
    branch by the hospital (the hospital network x1.35, the others unmoved; accepted by the owner as a shift). The
    point-of-sale system was down on Wednesday 10 September 14:00-16:59 (x0.2 everywhere, tickets unrecorded;
    unlabelled incidents, history only). Poisson counts with 5% extra noise per hour and network. From Monday 25
    August 2025 00:00 (49 days, to Sunday 12 October 23:00): 35 days of history, from Monday 29 September 00:00
    evaluated (14 days); categories "match" (the qualifier's 20:00-22:59), "holiday" (a holiday's hours),
    "payday_evening" (the quincena's 17:00-20:59), "night" (22:00-05:59, the colonias and the malls shut),
    "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "America/Tegucigalpa"
    cal = HolidayCalendar(country="HN")
    tz = ZoneInfo(zone)
    networks = _unequal(rng, list(_HN_PEAK))
    start, first = date(2025, 8, 25), date(2025, 9, 29)
    series, cats, incidents = [], {}, set()
    for k in range(49):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            down = d == _HN_POS_DOWN[0] and h in _HN_POS_DOWN[1]
            values = []
            for n in networks:
                lam = _HN_PEAK[n] * _hn_hour(local, n, cal) * (0.2 if down else 1.0)
                values.append(_poisson(rng, lam * math.exp(rng.gauss(0, 0.05))) if lam else 0.0)
            at = _utc_hour(local, tz)
            series.append((at, values))
            if down:
                incidents.add(at)
            elif d == _HN_MATCH[0] and (h in _HN_MATCH[1] or h == _HN_MATCH[2]):
                cats[at] = "match"
            elif cal.name(d):
                cats[at] = "holiday"
            elif d.day in _HN_PAYDAYS and h in _HN_PAYDAY_HOURS:
                cats[at] = "payday_evening"
            elif h in _HN_NIGHT:
                cats[at] = "night"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_HN_HOSPITAL_BRANCH, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("pharmacies_tegucigalpa_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Cypriot supermarket chain's items scanned per day by department, at its base level of January 2023 (a Monday):
# the British imports' aisle some twenty-one times smaller than meat and dairy
_CY_ITEMS = {"meat_dairy": 38_000.0, "bakery": 22_000.0, "produce": 18_000.0, "beverages": 12_000.0,
             "fasting_foods": 6_000.0, "british_imports": 1_800.0}
_CY_WEEK = [0.95, 0.9, 0.85, 0.95, 1.15, 1.35, 0.55]  # Monday first: Wednesday's half-day, Saturday's shop, Sunday's
# Great Lent, Green Monday to Holy Saturday (the Orthodox Easter's 48 days before, weeks apart between years; in no
# calendar but Green Monday): meat and dairy given up, the fasting foods (seafood, legumes, tahini, halva) bought
_CY_LENT = {"meat_dairy": 0.75, "fasting_foods": 1.5, "produce": 1.1}
_CY_LENT_EVE = {"fasting_foods": 3.0, "bakery": 2.5}  # Saturday and Sunday before Green Monday: taramas, lagana
_CY_TSIKNOPEMPTI = {"meat_dairy": 1.8}  # the Thursday eleven days before Green Monday: the grills' meat
_CY_HOLY_WEEK = {"meat_dairy": 2.2, "bakery": 1.8}  # Holy Thursday to Saturday: the Easter lamb, the flaounes
_CY_DORMITION_FAST = ((8, 1), (8, 14), {"meat_dairy": 0.9, "fasting_foods": 1.2})  # the August fast (no calendar)
_CY_SUMMER = {"beverages": 1.3, "british_imports": 1.2}  # July and August: the tourists (in no calendar)
_CY_SHUT = ("Green Monday", "Easter Sunday", "Christmas Day")  # the stores shut (a few tourist branches open)
_CY_OVENS = date(2025, 6, 2)  # in-store ovens in every branch (a Monday): the bakery x1.3
_CY_POWER_CUTS = date(2023, 7, 20)  # a heatwave's power cuts shut most stores for the day (x0.35)


def _cy_lent(d: date) -> tuple[date, date]:
    """Green Monday and the Orthodox Easter of `d`'s year."""
    easter = _orthodox_easter(d.year)
    return easter - timedelta(days=48), easter


def _cy_day(d: date, department: str, cal: HolidayCalendar) -> float:
    """A department's items on `d` against its ordinary Monday: the week, Tsiknopempti, Lent's eve, Great Lent,
    Holy Week's last days, the holidays, the August fast and the summer."""
    f = _CY_WEEK[d.weekday()]
    green_monday, easter = _cy_lent(d)
    name = cal.name(d) or ""
    if d == green_monday - timedelta(days=11):
        f *= _CY_TSIKNOPEMPTI.get(department, 1.0)
    elif (green_monday - d).days in (1, 2):
        f *= _CY_LENT_EVE.get(department, 1.0)
    elif 1 <= (easter - d).days <= 3:
        f *= _CY_HOLY_WEEK.get(department, 1.0)
    elif green_monday < d < easter:
        f *= _CY_LENT.get(department, 1.0)
    if name in _CY_SHUT:
        f *= 0.15
    elif name:
        f *= 0.6
    if _CY_DORMITION_FAST[0] <= (d.month, d.day) <= _CY_DORMITION_FAST[1]:
        f *= _CY_DORMITION_FAST[2].get(department, 1.0)
    if d.month in (7, 8):
        f *= _CY_SUMMER.get(department, 1.0)
    return f


def departments_cy(seed: int) -> Estate:
    """Blind (thirty-third round): a Cypriot supermarket chain's items scanned per day by department (six: meat and
    dairy 38,000 at its base level of January 2023 (a Monday x0.95), the bakery 22,000, produce 18,000, beverages
    12,000, the fasting foods (seafood, legumes, tahini, halva) 6,000 and the British imports' aisle 1,800, some
    twenty-one times fewer; in an order set by the seed), on Cyprus's holidays (the `holidays` package's CY: Green
    Monday 27 February 2023, 18 March 2024, 3 March 2025; the Orthodox Good Friday, Easter Sunday and Monday, 16 April
    2023, 5 May 2024, 20 April 2025; Pentecost Monday, the Dormition 15 August, Ohi Day 28 October). The week
    (`_CY_WEEK`: Saturday x1.35, Sunday x0.55, Wednesday's half-day x0.85). Green Monday, Easter Sunday and
    Christmas Day the stores shut (x0.15), another holiday x0.6. In no calendar but Green Monday: Great Lent, the 48
    days from Green Monday to Holy Saturday, weeks apart between years (meat and dairy x0.75, the fasting foods x1.5,
    produce x1.1: the mix moves, the total barely); the Saturday and Sunday before Green Monday (the fasting foods
    x3.0, the bakery x2.5: taramas and lagana); Tsiknopempti, the Thursday eleven days before Green Monday (meat and
    dairy x1.8); Holy Thursday to Holy Saturday (meat and dairy x2.2, the bakery x1.8: the lamb and the flaounes);
    the August fast (1-14 August: meat and dairy x0.9, the fasting foods x1.2); the summer's tourists (July and
    August: beverages x1.3, the British imports x1.2). From Monday 2 June 2025 in-store ovens in every branch (the
    bakery x1.3, the others unmoved; accepted by the owner as a shift). A heatwave's power cuts shut most stores on
    Thursday 20 July 2023 (x0.35 everywhere; unlabelled, history only). Poisson counts with 5% extra noise per
    department; +4% a year. From Monday 2 January 2023 (1,003 days, to Tuesday 30 September 2025): from Monday 2
    September 2024 evaluated; categories "holy_week" (Holy Thursday to Saturday), "lent_eve" (the Saturday and Sunday
    before Green Monday), "tsiknopempti", "holiday", "lent" (Green Monday's Tuesday to Holy Wednesday), "august_fast"
    (1-14 August), "summer" (July and August's other days), "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CY")
    departments = _unequal(rng, list(_CY_ITEMS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.35 if d == _CY_POWER_CUTS else 1.0) * 1.04 ** (i / 365.25)
        values = []
        for p in departments:
            f = _cy_day(d, p, cal) * lift * (1.3 if p == "bakery" and d >= _CY_OVENS else 1.0)
            values.append(_poisson(rng, _CY_ITEMS[p] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        green_monday, easter = _cy_lent(d)
        if d == _CY_POWER_CUTS:
            incidents.add(at)
        elif 1 <= (easter - d).days <= 3:
            cats[at] = "holy_week"
        elif (green_monday - d).days in (1, 2):
            cats[at] = "lent_eve"
        elif d == green_monday - timedelta(days=11):
            cats[at] = "tsiknopempti"
        elif cal.name(d):
            cats[at] = "holiday"
        elif green_monday < d < easter:
            cats[at] = "lent"
        elif _CY_DORMITION_FAST[0] <= (d.month, d.day) <= _CY_DORMITION_FAST[1]:
            cats[at] = "august_fast"
        elif d.month in (7, 8):
            cats[at] = "summer"
    shift = datetime(_CY_OVENS.year, _CY_OVENS.month, _CY_OVENS.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("departments_cy", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Trinidad and Tobago household-goods chain's sales (receipts) per day by store, at its base level of January 2023
# (a Monday): Scarborough's store on Tobago some twenty-one times smaller than Port of Spain's
_TT_RECEIPTS = {"port_of_spain": 14_000.0, "chaguanas": 11_000.0, "san_fernando": 9_000.0, "arima": 5_000.0,
                "scarborough": 650.0}
_TT_WEEK = [0.85, 0.85, 0.9, 0.95, 1.25, 1.45, 0.45]  # Monday first: Friday's and Saturday's shopping, Sunday's mall hours
# Divali's run-up (the calendar's Diwali: 12 November 2023, 31 October 2024, 20 October 2025, weeks apart on the
# lunisolar calendar): the deyas, the lights, the new clothes and the sweets, rising over the ten days before, most in
# the Indo-Trinidadian heartland; the day itself the stores shut
_TT_DIVALI = {"chaguanas": 2.2, "san_fernando": 1.6, "port_of_spain": 1.25, "arima": 1.25, "scarborough": 1.05}
_TT_DIVALI_DAYS = 10
# Carnival Monday and Tuesday (Easter's 48 and 47 days before; in no calendar) and Ash Wednesday: Port of Spain's
# streets the parade's; the week before, the costumes, the coolers and the fetes
_TT_CARNIVAL = {"port_of_spain": 0.2, "arima": 0.4, "chaguanas": 0.45, "san_fernando": 0.45, "scarborough": 0.5}
_TT_ASH_WEDNESDAY = 0.85
_TT_CARNIVAL_WEEK = {"port_of_spain": 1.3, "arima": 1.15}  # the six days before Carnival Monday
_TT_CHRISTMAS = {"port_of_spain": 1.6}  # 1-24 December (in no calendar): x1.5 elsewhere
_TT_SCHOOL = ((8, 15), (8, 31), 1.3)  # back to school (in no calendar)
_TT_ARIMA_MOVE = date(2025, 6, 2)  # Arima's store moved to a bigger site in a new mall (a Monday): x1.4
_TT_CARDS_DOWN = date(2023, 12, 16)  # the card network down most of a Saturday (x0.4)


def _tt_divali(d: date, cal: HolidayCalendar) -> int | None:
    """How many days `d` falls before the calendar's Divali (1 to `_TT_DIVALI_DAYS`), or None."""
    for k in range(1, _TT_DIVALI_DAYS + 1):
        if (cal.name(d + timedelta(days=k)) or "") == "Diwali":
            return k
    return None


def _tt_carnival(d: date) -> int:
    """`d`'s days after Carnival Monday (Easter's 48 days before), in the year's own Carnival."""
    return (d - (_easter(d.year) - timedelta(days=48))).days


def _tt_day(d: date, store: str, cal: HolidayCalendar) -> float:
    """A store's receipts on `d` against its ordinary Monday: the week, Divali's run-up, the holidays (Divali and
    Christmas Day shut, Boxing Day's sales), Carnival and its week, Christmas and back to school."""
    f = _TT_WEEK[d.weekday()]
    name = cal.name(d) or ""
    before = _tt_divali(d, cal)
    if before is not None:
        f *= 1 + (_TT_DIVALI[store] - 1) * (_TT_DIVALI_DAYS + 1 - before) / _TT_DIVALI_DAYS
    carnival = _tt_carnival(d)
    if name in ("Diwali", "Christmas Day"):
        f *= 0.15
    elif name == "Boxing Day":
        f *= 1.1
    elif name:
        f *= 0.5
    elif carnival in (0, 1):
        f *= _TT_CARNIVAL[store]
    elif carnival == 2:
        f *= _TT_ASH_WEDNESDAY
    elif -6 <= carnival < 0:
        f *= _TT_CARNIVAL_WEEK.get(store, 1.0)
    if d.month == 12 and d.day <= 24:
        f *= _TT_CHRISTMAS.get(store, 1.5)
    if _TT_SCHOOL[0] <= (d.month, d.day) <= _TT_SCHOOL[1]:
        f *= _TT_SCHOOL[2]
    return f


def stores_tt(seed: int) -> Estate:
    """Blind (thirty-third round): a Trinidad and Tobago household-goods chain's receipts per day by store (five:
    Port of Spain 14,000 at its base level of January 2023 (a Monday x0.85), Chaguanas 11,000, San Fernando 9,000,
    Arima 5,000 and Scarborough on Tobago 650, some twenty-one times fewer; in an order set by the seed), on Trinidad
    and Tobago's holidays (the `holidays` package's TT: Divali on 12 November 2023, 31 October 2024 and 20 October
    2025, weeks apart on the lunisolar calendar; Eid al-Fitr, the Spiritual Baptist Liberation Day, Indian Arrival
    Day, Corpus Christi, Emancipation, Independence and Republic Days, Christmas and Boxing Day). The week
    (`_TT_WEEK`: Saturday x1.45, Sunday x0.45). Divali's run-up, the ten days before it, rising day by day to
    Chaguanas x2.2, San Fernando x1.6, Port of Spain and Arima x1.25, Scarborough x1.05 the day before (the deyas,
    the lights, the clothes and the sweets); Divali and Christmas Day the stores shut (x0.15), Boxing Day x1.1,
    another holiday x0.5. In no calendar: Carnival Monday and Tuesday (20-21 February 2023, 12-13 February 2024, 3-4
    March 2025: Port of Spain x0.2, the parade in its streets, the others x0.4-0.5) and Ash Wednesday x0.85; the
    six days before Carnival Monday (Port of Spain x1.3, Arima x1.15: the costumes, coolers and fetes); Christmas
    shopping (1-24 December: x1.5, Port of Spain x1.6); back to school (15-31 August: x1.3). From Monday 2 June 2025
    Arima's store trades from a bigger site in a new mall (Arima x1.4, the others unmoved; accepted by the owner as
    a shift). The card network was down most of Saturday 16 December 2023 (x0.4 everywhere; unlabelled, history
    only). Poisson counts with 5% extra noise per store; +5% a year. From Monday 2 January 2023 (1,003 days, to
    Tuesday 30 September 2025): from Monday 2 September 2024 evaluated (Divali 2024's run-up, 21-30 October, in it); categories "divali_runup" (the ten days before Divali), "holiday",
    "carnival" (Carnival Monday, Tuesday and Ash Wednesday), "carnival_week" (the six days before), "christmas"
    (1-24 December), "back_to_school" (15-31 August), "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TT")
    stores = _unequal(rng, list(_TT_RECEIPTS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.4 if d == _TT_CARDS_DOWN else 1.0) * 1.05 ** (i / 365.25)
        values = []
        for s in stores:
            f = _tt_day(d, s, cal) * lift * (1.4 if s == "arima" and d >= _TT_ARIMA_MOVE else 1.0)
            values.append(_poisson(rng, _TT_RECEIPTS[s] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        carnival = _tt_carnival(d)
        if d == _TT_CARDS_DOWN:
            incidents.add(at)
        elif _tt_divali(d, cal) is not None:
            cats[at] = "divali_runup"
        elif cal.name(d):
            cats[at] = "holiday"
        elif 0 <= carnival <= 2:
            cats[at] = "carnival"
        elif -6 <= carnival < 0:
            cats[at] = "carnival_week"
        elif d.month == 12 and d.day <= 24:
            cats[at] = "christmas"
        elif _TT_SCHOOL[0] <= (d.month, d.day) <= _TT_SCHOOL[1]:
            cats[at] = "back_to_school"
    shift = datetime(_TT_ARIMA_MOVE.year, _TT_ARIMA_MOVE.month, _TT_ARIMA_MOVE.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("stores_tt", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Costa Rican electricity distributor's invoice lines per billing month by region, dated on the month's last day,
# at its base level of January 2021: Limón's some twenty-one times fewer than San José's. Billed in arrears: a
# month's lines are issued early the next month; a meter not read in time is billed on an estimate and its
# correction lands in the next month's lines (a month's late share moves lines from it into the next)
_CR_LINES = {"san_jose": 180_000.0, "alajuela": 120_000.0, "cartago": 70_000.0, "heredia": 60_000.0,
             "guanacaste": 35_000.0, "limon": 8_500.0}
_CR_LATE = 0.03  # an ordinary month's readings corrected in the next month
_CR_LATE_HOLY_WEEK = 0.10  # the month holding Holy Week (the readers off Wednesday to Friday)
_CR_LATE_DECEMBER = 0.14  # December (the readers' Christmas holidays)
_CR_LIMON_RAINS = ((11, 12), 0.12)  # the Caribbean's rains cut Limón's rural roads: its readers late (no calendar)
_CR_FISCAL_YEAR_END = 9  # the distributor's fiscal year runs October to September (the owner configures it)
_CR_YEAR_END = 1.12  # September: every pending reading billed (no late share) and the year's tariff true-up lines
_CR_QUARTER_END = 1.05  # the fiscal quarters' closes (December, March, June): quarterly fees' lines
_CR_DRY_SEASON = ((12, 1, 2, 3, 4), 1.2)  # Guanacaste's beach houses occupied, reconnected (in no calendar)
_CR_COOPERATIVE = date(2025, 4, 30)  # from April 2025's bills: a rural cooperative's customers in Guanacaste (x1.3)
_CR_RUN_FAILED = (date(2022, 6, 30), "cartago", 0.45)  # June 2022's run loaded Cartago's lines by half, never redone


def _cr_holy_week(month_end: date) -> bool:
    """Whether the month ending on `month_end` holds Maundy Thursday."""
    thursday = _easter(month_end.year) - timedelta(days=3)
    return (thursday.year, thursday.month) == (month_end.year, month_end.month)


def _cr_late(month_end: date, region: str) -> float:
    """The share of a region's month billed on estimates, corrected in the next month's lines."""
    if month_end.month == _CR_FISCAL_YEAR_END:
        return 0.0
    late = _CR_LATE_DECEMBER if month_end.month == 12 else _CR_LATE_HOLY_WEEK if _cr_holy_week(month_end) else _CR_LATE
    if region == "limon" and month_end.month in _CR_LIMON_RAINS[0]:
        late += _CR_LIMON_RAINS[1]
    return late


def _cr_month(month_end: date, region: str, i: int) -> float:
    """A region's lines for the consumption month ending on `month_end` (the `i`-th), before the late corrections:
    +0.3% a month, the fiscal year's and quarters' closes, Guanacaste's dry season and its cooperative."""
    f = 1.003 ** i
    if month_end.month == _CR_FISCAL_YEAR_END:
        f *= _CR_YEAR_END
    elif month_end.month % 3 == _CR_FISCAL_YEAR_END % 3:
        f *= _CR_QUARTER_END
    if region == "guanacaste":
        f *= _CR_DRY_SEASON[1] if month_end.month in _CR_DRY_SEASON[0] else 1.0
        f *= 1.3 if month_end >= _CR_COOPERATIVE else 1.0
    return _CR_LINES[region] * f


def billing_cr_monthly(seed: int) -> Estate:
    """Blind (thirty-third round): a Costa Rican electricity distributor's invoice lines per billing month by region
    (six: San José 180,000 at its base level of January 2021, Alajuela 120,000, Cartago 70,000, Heredia 60,000,
    Guanacaste 35,000 and Limón 8,500, some twenty-one times fewer; in an order set by the seed), one partition a
    month dated on its last day, on Costa Rica's holidays (the `holidays` package's CR) with a fiscal year from
    October to September (configured by the owner, `fiscal_year_end: 9`). Billed in arrears: a meter not read in
    time is billed on an estimate and corrected in the next month's run, so a month's late share leaves it and lands
    in the next: 3% an ordinary month, 10% the month holding Holy Week (March 2024; April 2021, 2022, 2023, 2025),
    14% December, Limón +12% in November and December (the Caribbean's rains cut its rural roads; in no calendar),
    none in September, the fiscal year's last month, when every pending reading is billed. September x1.12 (the
    year's tariff true-up lines); the fiscal quarters' closes (December, March, June) x1.05; Guanacaste's dry season
    (December to April: the beach houses occupied) x1.2, in no calendar. From April 2025's bills a rural
    cooperative's customers in Guanacaste (x1.3, the others unmoved; accepted by the owner as a shift). June 2022's
    run loaded Cartago's lines by half and was never redone (x0.45; an unlabelled incident, history only). 2.5%
    noise per region and month; +0.3% a month. From 31 January 2021 (60 month-ends, to 31 December 2025): three
    years read, from 31 January 2024 evaluated (24 months); categories "year_end" (September), "corrections" (the
    month after one whose late share was 10% or more: January, the month after Holy Week's), "holy_week" (the month
    holding Holy Week), "december", "quarter_end" (March and June), "dry_season" (February to April's other months),
    "after_shift" (the three months after the step, where no other category names them)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CR", fiscal_year_end=_CR_FISCAL_YEAR_END)
    regions = _unequal(rng, list(_CR_LINES))
    ends = _month_ends(date(2020, 12, 1), 61)  # December 2020: the first month's corrections come from it
    series, cats = [], {}
    incident = datetime(_CR_RUN_FAILED[0].year, _CR_RUN_FAILED[0].month, _CR_RUN_FAILED[0].day)
    for i, (before, end) in enumerate(pairwise(ends)):
        at = datetime(end.year, end.month, end.day)
        values = []
        for r in regions:
            lines = (_cr_month(end, r, i) * (1 - _cr_late(end, r))
                     + _cr_month(before, r, i - 1) * _cr_late(before, r))
            lines *= _CR_RUN_FAILED[2] if (end, r) == _CR_RUN_FAILED[:2] else 1.0
            values.append(_noisy(rng, lines, 0.025))
        series.append((at, values))
        if at == incident:
            continue
        if end.month == _CR_FISCAL_YEAR_END:
            cats[at] = "year_end"
        elif end.month == 1 or _cr_holy_week(before):
            cats[at] = "corrections"
        elif _cr_holy_week(end):
            cats[at] = "holy_week"
        elif end.month == 12:
            cats[at] = "december"
        elif end.month in (3, 6):
            cats[at] = "quarter_end"
        elif end.month in _CR_DRY_SEASON[0]:
            cats[at] = "dry_season"
    shift = datetime(_CR_COOPERATIVE.year, _CR_COOPERATIVE.month, _CR_COOPERATIVE.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 4]:
        cats.setdefault(at, "after_shift")
    return Estate("billing_cr_monthly", "day", series, 36, cal, cats, [shift], incidents={incident})


# a Yerevan metro's entries per local hour by group of stations, at an ordinary weekday's 08:00 of December 2025:
# the new southern extension's single station some seventeen times smaller than the centre's stations
_AM_PEAK = {"centre": 1_700.0, "north": 950.0, "south": 620.0, "garegin_nzhdeh": 100.0}
_AM_HOURS = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.55, 1.0, 0.85, 0.55, 0.45, 0.45, 0.5, 0.5, 0.55, 0.7, 0.85, 0.95,
             0.7, 0.45, 0.3, 0.18, 0.0]  # a weekday's hours, local midnight first: trains from 07:00 to 22:59
_AM_WEEKEND = (0.7, 0.55)  # Saturday, Sunday (their morning peak flattened: 07:00-09:59 x0.6 more)
# New Year's night: the trains run until 02:00 on 1 January (00:00-01:59 as a weekday's 20:00, in no calendar)
_AM_NEW_YEAR_NIGHT = (range(2), 0.45)
# the New Year week's other days, 3-5 and 7 January (in no calendar: the city visiting family): x0.45, the centre's
# stations x0.6 (the Republic Square's tree); the calendar's 31 December (x0.7 until 16:00, x0.3 after), 1-2 and 6
# January x0.35
_AM_NEW_YEAR_WEEK = ((1, 3), (1, 4), (1, 5), (1, 7))
_AM_FEEDER = datetime(2026, 1, 8, 7)  # local: feeder buses to the north's stations (the north x1.3)
_AM_GATES_DOWN = (date(2025, 12, 12), range(8, 11))  # the ticket gates offline: entries unrecorded (x0.3)


def _am_hour(local: datetime, group: str, cal: HolidayCalendar) -> float:
    """A group's entries in a local hour against an ordinary weekday's 08:00: the trains' hours (and New Year's
    night), the week, the calendar's holidays, the New Year week's days in no calendar and the north's feeders."""
    d, h = local.date(), local.hour
    if (d.month, d.day) == (1, 1) and h in _AM_NEW_YEAR_NIGHT[0]:
        return _AM_NEW_YEAR_NIGHT[1]
    f = _AM_HOURS[h]
    if d.weekday() >= 5:
        f *= _AM_WEEKEND[d.weekday() - 5] * (0.6 if h in range(7, 10) else 1.0)
    if (d.month, d.day) == (12, 31):
        f *= 0.7 if h < 16 else 0.3
    elif cal.name(d):
        f *= 0.35
    elif (d.month, d.day) in _AM_NEW_YEAR_WEEK:
        f *= 0.6 if group == "centre" else 0.45
    if group == "north" and local >= _AM_FEEDER:
        f *= 1.3
    return f


def metro_yerevan_hourly(seed: int) -> Estate:
    """Blind (thirty-fourth round): a Yerevan metro's entries per local hour by group of stations (four: the
    centre's 1,700 at an ordinary weekday's 08:00 of December 2025, the north's 950, the south's 620 and the new
    extension's single station (Garegin Nzhdeh) 100, some seventeen times smaller; in an order set by the seed), in
    Asia/Yerevan, four hours ahead of UTC all year (no daylight saving), on Armenia's holidays (the `holidays`
    package's AM: New Year's Eve Wednesday 31 December 2025 (x0.7 until 16:00, x0.3 after), New Year's Day Thursday 1
    and Friday 2 January 2026 and Christmas and Epiphany Tuesday 6 January (x0.35)). Trains run 07:00-22:59 (no rows,
    so no partition, outside); a weekday's shape (`_AM_HOURS`: 08:00 the peak, 18:00 x0.95, 22:00 x0.18); Saturdays x0.7,
    Sundays x0.55, their 07:00-09:59 x0.6 more. In no calendar: New Year's night, the trains running until 02:00 on
    1 January (00:00-01:59 x0.45 of the peak, hours with no partition every other night); the New Year week's other
    days, Saturday 3 to Monday 5 and Wednesday 7 January (x0.45, the centre x0.6: the city visiting family). From
    Thursday 8 January 2026 07:00 feeder buses to the north's stations (the north x1.3, the others unmoved; accepted
    by the owner as a shift). The ticket gates were offline on Friday 12 December 2025 08:00-10:59 (x0.3
    everywhere, entries unrecorded; unlabelled incidents, history only). Poisson counts with 6% extra noise per hour
    and group; no trend over six weeks. From Monday 1 December 2025 07:00 (42 days, to Sunday 11 January 2026
    22:00): 28 days of history, from Monday 29 December 07:00 evaluated (14 days); categories "new_year_night"
    (1 January 00:00-01:59), "holiday" (a holiday's hours), "new_year_week" (3-5 and 7 January), "after_shift" (the
    eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Asia/Yerevan"
    cal = HolidayCalendar(country="AM")
    tz = ZoneInfo(zone)
    groups = _unequal(rng, list(_AM_PEAK))
    start, first = date(2025, 12, 1), date(2025, 12, 29)
    series, cats, incidents = [], {}, set()
    for k in range(42):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            if not _am_hour(local, groups[0], cal):
                continue  # no trains: the hour has no rows, so no partition
            down = d == _AM_GATES_DOWN[0] and h in _AM_GATES_DOWN[1]
            values = []
            for g in groups:
                lam = _AM_PEAK[g] * _am_hour(local, g, cal) * (0.3 if down else 1.0)
                values.append(_poisson(rng, lam * math.exp(rng.gauss(0, 0.06))) if lam else 0.0)
            at = _utc_hour(local, tz)
            series.append((at, values))
            if down:
                incidents.add(at)
            elif (d.month, d.day) == (1, 1) and h in _AM_NEW_YEAR_NIGHT[0]:
                cats[at] = "new_year_night"
            elif cal.name(d):
                cats[at] = "holiday"
            elif (d.month, d.day) in _AM_NEW_YEAR_WEEK:
                cats[at] = "new_year_week"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_AM_FEEDER, tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day, 7), tz)  # the first train
    return Estate("metro_yerevan_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Botswana supermarket chain's till receipts per day by store, at its base level of January 2023 (a Monday): the
# Maun store (the Okavango's lodges) some thirteen times smaller than Gaborone's
_BW_RECEIPTS = {"gaborone": 16_000.0, "francistown": 9_000.0, "jwaneng": 7_000.0, "orapa": 4_500.0, "maun": 1_250.0}
_BW_WEEK = [0.9, 0.85, 0.85, 0.9, 1.15, 1.35, 0.6]  # Monday first
# the mines' wages paid every other Friday (fortnightly, not by the month; in no calendar), from Friday 6 January
# 2023: the mining towns' stores x1.8 that Friday and x1.4 the Saturday after, the others x1.1 (the miners' families)
_BW_MINE_PAYDAY = date(2023, 1, 6)
_BW_MINE_TOWNS = ("jwaneng", "orapa")
_BW_MINE_LIFT = ((1.8, 1.4), (1.1, 1.05))  # (Friday, Saturday): the mining towns, the others
# the civil service's month pay on the 24th, or the weekday before when it falls on a weekend or a holiday (in no
# calendar): x1.3 in Gaborone, x1.2 elsewhere
_BW_CIVIL_PAYDAY = 24
_BW_SAFARI = ((7, 10), 1.35)  # Maun's lodges full July to October (in no calendar)
_BW_SHUT = ("Christmas Day", "Good Friday")  # most stores shut (x0.2); another holiday x0.55
_BW_JWANENG_MALL = date(2025, 3, 3)  # Jwaneng's store moved into the new mall (a Monday): x1.4
_BW_FRANCISTOWN_OUTAGE = date(2023, 8, 14)  # Francistown's power out all day: its tills down (x0.1)


def _bw_civil_payday(d: date, cal: HolidayCalendar) -> date:
    """The civil service's payday of `d`'s month: the 24th, rolled back over weekends and holidays."""
    pay = date(d.year, d.month, _BW_CIVIL_PAYDAY)
    while pay.weekday() >= 5 or cal.name(pay):
        pay -= timedelta(days=1)
    return pay


def _bw_mine_payday(d: date) -> int:
    """1 on the mines' fortnightly payday, 2 on the Saturday after it, 0 otherwise."""
    offset = (d - _BW_MINE_PAYDAY).days % 14
    return 1 if offset == 0 else 2 if offset == 1 else 0


def _bw_day(d: date, store: str, cal: HolidayCalendar) -> float:
    """A store's receipts on `d` against its ordinary Monday: the week, the holidays, the mines' fortnightly pay,
    the civil service's month pay, Maun's safari season and Jwaneng's move."""
    f = _BW_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if name in _BW_SHUT:
        f *= 0.2
    elif name:
        f *= 0.55
    mine = _bw_mine_payday(d)
    if mine:
        f *= _BW_MINE_LIFT[store not in _BW_MINE_TOWNS][mine - 1]
    if d == _bw_civil_payday(d, cal):
        f *= 1.3 if store == "gaborone" else 1.2
    if store == "maun" and _BW_SAFARI[0][0] <= d.month <= _BW_SAFARI[0][1]:
        f *= _BW_SAFARI[1]
    if store == "jwaneng" and d >= _BW_JWANENG_MALL:
        f *= 1.4
    return f


def receipts_bw(seed: int) -> Estate:
    """Blind (thirty-fourth round): a Botswana supermarket chain's till receipts per day by store (five: Gaborone's
    16,000 at its base level of January 2023 (a Monday x0.9), Francistown's 9,000, the mining towns Jwaneng's 7,000
    and Orapa's 4,500, and Maun's 1,250, some thirteen times fewer; in an order set by the seed), on Botswana's
    holidays (the `holidays` package's BW: Good Friday to Easter Monday, Ascension, Sir Seretse Khama Day 1 July,
    President's Day and its holiday in July, Botswana Day 30 September and 1 October, the 2024 election's holidays
    30 and 31 October, Christmas and Boxing Day): Good Friday and Christmas Day most stores shut (x0.2), another
    holiday x0.55. The week (`_BW_WEEK`: Saturday x1.35, Sunday x0.6). In no calendar: the mines' wages every other
    Friday from Friday 6 January 2023 (fortnightly, so two paydays some months and three in others, drifting through
    the month): Jwaneng and Orapa x1.8 that Friday and x1.4 the Saturday after, the others x1.1 and x1.05; the civil
    service's month pay on the 24th (or the weekday before, over weekends and holidays): Gaborone x1.3, the others
    x1.2; Maun's safari season (July to October, the lodges full) x1.35. From Monday 3 March 2025 Jwaneng's store in
    the new mall (x1.4, the others unmoved; accepted by the owner as a shift). Francistown's power was out all day on
    Monday 14 August 2023 (its tills x0.1; an unlabelled incident, history only). Poisson counts with 5% extra noise
    per store; +5% a year. From Monday 2 January 2023 (1,003 days, to Tuesday 30 September 2025): from Monday 2
    September 2024 evaluated; categories "mine_payday" (the fortnightly Friday), "mine_saturday" (the Saturday
    after), "civil_payday", "holiday", "safari_season" (July to October's other days), "after_shift" (the four weeks
    after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BW")
    stores = _unequal(rng, list(_BW_RECEIPTS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.05 ** (i / 365.25)
        values = []
        for s in stores:
            f = _bw_day(d, s, cal) * lift * (0.1 if (d, s) == (_BW_FRANCISTOWN_OUTAGE, "francistown") else 1.0)
            values.append(_poisson(rng, _BW_RECEIPTS[s] * f * math.exp(rng.gauss(0, 0.05))))
        series.append((at, values))
        mine = _bw_mine_payday(d)
        if d == _BW_FRANCISTOWN_OUTAGE:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif mine:
            cats[at] = ("mine_payday", "mine_saturday")[mine - 1]
        elif d == _bw_civil_payday(d, cal):
            cats[at] = "civil_payday"
        elif _BW_SAFARI[0][0] <= d.month <= _BW_SAFARI[0][1]:
            cats[at] = "safari_season"
    shift = datetime(_BW_JWANENG_MALL.year, _BW_JWANENG_MALL.month, _BW_JWANENG_MALL.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("receipts_bw", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Malagasy courier's parcels per day by region, at its base level of January 2023 (a Monday): the SAVA region
# (the north-east's vanilla coast) some nine times smaller than Antananarivo's
_MG_PARCELS = {"antananarivo": 5_200.0, "toamasina": 2_100.0, "fianarantsoa": 1_100.0, "sava": 600.0}
_MG_WEEK = [1.0, 0.95, 0.95, 1.0, 1.1, 0.8, 0.12]  # Monday first: Saturday mornings, Sunday's lockers only
# the cyclone season's road cut (the RN5a to the SAVA washed out; in no calendar): its dates move by weeks between
# years with the storms; SAVA's parcels by air freight only (x0.2)
_MG_ROAD_CUTS = ((date(2023, 2, 20), date(2023, 3, 19)), (date(2024, 1, 15), date(2024, 2, 4)),
                 (date(2025, 3, 3), date(2025, 3, 23)))
_MG_ROAD_CUT = 0.2
# the vanilla campaign (the export season opened by decree, weeks apart between years; in no calendar): SAVA x1.6
_MG_VANILLA = ((date(2023, 10, 16), date(2023, 12, 15)), (date(2024, 11, 4), date(2025, 1, 10)))
_MG_INDEPENDENCE_RUNUP = (6, range(19, 26), 1.3)  # 19-25 June, the fête's shopping (in no calendar): x1.3
_MG_HUB = date(2025, 4, 7)  # a new sorting hub in Fianarantsoa (a Monday): x1.5
_MG_TRACKING_DOWN = date(2023, 11, 9)  # the tracking system down: parcels unscanned (x0.4 everywhere)


def _mg_span(d: date, spans: tuple[tuple[date, date], ...]) -> bool:
    """`d` inside one of the spans (first and last days included)."""
    return any(a <= d <= b for a, b in spans)


def _mg_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's parcels on `d` against its ordinary Monday: the week, the holidays, Independence Day's run-up,
    SAVA's road cuts and vanilla campaigns, and Fianarantsoa's hub."""
    f = _MG_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if name == "Independence Day":
        f *= 0.1
    elif name and d.weekday() != 6:
        f *= 0.3
    if d.month == _MG_INDEPENDENCE_RUNUP[0] and d.day in _MG_INDEPENDENCE_RUNUP[1]:
        f *= _MG_INDEPENDENCE_RUNUP[2]
    if region == "sava":
        f *= _MG_ROAD_CUT if _mg_span(d, _MG_ROAD_CUTS) else 1.6 if _mg_span(d, _MG_VANILLA) else 1.0
    if region == "fianarantsoa" and d >= _MG_HUB:
        f *= 1.5
    return f


def parcels_mg(seed: int) -> Estate:
    """Blind (thirty-fourth round): a Malagasy courier's parcels per day by region (four: Antananarivo 5,200 at its
    base level of January 2023 (a Monday), Toamasina 2,100, Fianarantsoa 1,100 and the SAVA region (the north-east's
    vanilla coast) 600, some nine times fewer; in an order set by the seed), on Madagascar's holidays (the `holidays`
    package's MG: Women's Day 8 March, Martyrs' Day 29 March, Easter Monday, Ascension, Pentecost Monday, Independence
    Day 26 June (x0.1), Assumption, All Saints', Republic Day 11 December, Christmas; a weekday holiday x0.3, the
    calendar's Sundays (Easter, Pentecost, Mother's and Father's Days) as Sundays). A six-day week (`_MG_WEEK`:
    Friday x1.1, Saturday morning x0.8, Sunday x0.12, the lockers only). In no calendar: the cyclone season's road
    cut to the SAVA (the RN5a washed out, SAVA's parcels by air freight only, x0.2) for weeks whose dates move
    between years with the storms (20 February to 19 March 2023, 15 January to 4 February 2024, 3 to 23 March 2025);
    the vanilla campaign, opened by decree on dates weeks apart between years (SAVA x1.6: 16 October to 15 December
    2023, 4 November 2024 to 10 January 2025); Independence Day's run-up (19-25 June, x1.3 everywhere). From Monday 7
    April 2025 a new sorting hub in Fianarantsoa (x1.5, the others unmoved; accepted by the owner as a shift). The
    tracking system was down on Thursday 9 November 2023 (x0.4 everywhere, parcels unscanned; an unlabelled
    incident, history only). Poisson counts with 6% extra noise per region; +9% a year. From Monday 2 January 2023
    (1,003 days, to Tuesday 30 September 2025): from Monday 2 September 2024 evaluated; categories "road_cut" (the
    SAVA's cut days), "vanilla_campaign", "independence_runup", "holiday", "sunday" (the lockers' day),
    "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MG")
    regions = _unequal(rng, list(_MG_PARCELS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.4 if d == _MG_TRACKING_DOWN else 1.0) * 1.09 ** (i / 365.25)
        values = [_poisson(rng, _MG_PARCELS[r] * _mg_day(d, r, cal) * lift * math.exp(rng.gauss(0, 0.06)))
                  for r in regions]
        series.append((at, values))
        if d == _MG_TRACKING_DOWN:
            incidents.add(at)
        elif _mg_span(d, _MG_ROAD_CUTS):
            cats[at] = "road_cut"
        elif _mg_span(d, _MG_VANILLA):
            cats[at] = "vanilla_campaign"
        elif d.month == _MG_INDEPENDENCE_RUNUP[0] and d.day in _MG_INDEPENDENCE_RUNUP[1]:
            cats[at] = "independence_runup"
        elif cal.name(d) and d.weekday() != 6:
            cats[at] = "holiday"
        elif d.weekday() == 6:
            cats[at] = "sunday"
    shift = datetime(_MG_HUB.year, _MG_HUB.month, _MG_HUB.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("parcels_mg", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Nicaraguan coffee exporter's cherry deliveries (quintals) per week by buying station, at the harvest's peak of
# the 2020/21 season: Boaco's station some thirteen times smaller than Matagalpa's
_NI_QUINTALS = {"matagalpa": 3_200.0, "jinotega": 2_800.0, "nueva_segovia": 1_500.0, "boaco": 250.0}
# the harvest's first picking, moved by weeks between years with the rains' end (in no calendar); Nueva Segovia's
# higher farms two weeks later; eighteen weeks of picking, ramped in over four weeks and out over four
_NI_HARVEST_STARTS = (date(2020, 11, 2), date(2021, 11, 22), date(2022, 10, 31), date(2023, 11, 27),
                      date(2024, 11, 11))
_NI_HARVEST_WEEKS = 18
_NI_HIGHLANDS_LAG = {"nueva_segovia": 14}  # days later
_NI_OFF_SEASON = 0.06  # stored coffee delivered between harvests
_NI_WET_MILL = ("jinotega", date(2024, 1, 15), 1.3)  # a new wet mill buying at Jinotega's station
_NI_SCALE_DOWN = ("matagalpa", date(2022, 1, 17), 0.3)  # Matagalpa's scale unrecorded most of a week


def _ni_harvest_week(d: date, lag: int = 0) -> int | None:
    """The week of the harvest `d` falls in (0 its first picking), None between harvests."""
    for s in _NI_HARVEST_STARTS:
        k = (d - s - timedelta(days=lag)).days // 7
        if 0 <= k < _NI_HARVEST_WEEKS:
            return k
    return None


def _ni_day(d: date, station: str, cal: HolidayCalendar) -> float:
    """A station's deliveries on `d` against a peak harvest day: the harvest's ramp in and out (Nueva Segovia two
    weeks later), the off-season's stored coffee, Sunday's closed scales and the holidays."""
    k = _ni_harvest_week(d, _NI_HIGHLANDS_LAG.get(station, 0))
    f = _NI_OFF_SEASON if k is None else max(_NI_OFF_SEASON, min(1.0, (k + 1) / 4, (_NI_HARVEST_WEEKS - k) / 4))
    if d.weekday() == 6:
        f *= 0.25
    if cal.name(d):
        f *= 0.2
    return f / 6.25  # a week of six days and a Sunday's quarter: a peak week near the station's size


def coffee_ni_weekly(seed: int) -> Estate:
    """Blind (thirty-fourth round): a Nicaraguan coffee exporter's cherry deliveries (quintals) per week by buying
    station (four: Matagalpa 3,200 at the 2020/21 harvest's peak, Jinotega 2,800, Nueva Segovia 1,500 and Boaco 250,
    some thirteen times fewer; in an order set by the seed), weeks keyed on their Monday, on Nicaragua's holidays
    (the `holidays` package's NI: Maundy Thursday and Good Friday, Labour Day, Mother's Day 30 May, 19 July, 14 and
    15 September, the Immaculate Conception 8 December, Christmas, New Year: a holiday's deliveries x0.2, Sunday's
    x0.25). In no calendar: the harvest, whose first picking moves by weeks between years with the rains' end (2
    November 2020, 22 November 2021, 31 October 2022, 27 November 2023, 11 November 2024; Nueva Segovia's higher
    farms two weeks later), eighteen weeks of picking ramped in over four weeks and out over four, and between
    harvests the stored coffee's trickle (x0.06 of the peak): a season some seventeen times the off-season. From the
    week of Monday 15 January 2024 a new wet mill buys at Jinotega's station (x1.3, the others unmoved; accepted by
    the owner as a shift). Matagalpa's scale went unrecorded most of the week of Monday 17 January 2022 (x0.3; an
    unlabelled incident, history only). 4% noise per station and week; +3% a year. From the week of Monday 7
    December 2020 (216 weeks, to the week of Monday 20 January 2025): three years read, from the week of Monday 4
    December 2023 evaluated (60 weeks); categories "holy_week" (the week of Good Friday), "christmas" (the week
    holding 25 December), "harvest_start" (the harvest's first three weeks), "harvest_end" (its last four),
    "off_season" (between harvests), "after_shift" (the three weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NI")
    stations = _unequal(rng, list(_NI_QUINTALS))
    start = date(2020, 12, 7)
    series = _weekly_sums(rng, start, 216, stations, _NI_QUINTALS, lambda d, s: _ni_day(d, s, cal), growth=1.03,
                          noise=0.04, step=_NI_WET_MILL, loss=_NI_SCALE_DOWN)
    cats = {}
    for at, _ in series:
        days = [at.date() + timedelta(days=j) for j in range(7)]
        k = _ni_harvest_week(at.date())
        if at.date() == _NI_SCALE_DOWN[1]:
            continue
        if any(cal.name(d) == "Good Friday" for d in days):
            cats[at] = "holy_week"
        elif any((d.month, d.day) == (12, 25) for d in days):
            cats[at] = "christmas"
        elif k is None:
            cats[at] = "off_season"
        elif k < 3:
            cats[at] = "harvest_start"
        elif k >= _NI_HARVEST_WEEKS - 4:
            cats[at] = "harvest_end"
    shift = datetime(_NI_WET_MILL[1].year, _NI_WET_MILL[1].month, _NI_WET_MILL[1].day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    incident = datetime(_NI_SCALE_DOWN[1].year, _NI_SCALE_DOWN[1].month, _NI_SCALE_DOWN[1].day)
    return Estate("coffee_ni_weekly", "day", series, 156, cal, cats, [shift], incidents={incident})


# a Chisinau payment-kiosk network's payments (utility bills, mobile top-ups, fines) per local hour by sector, at an
# ordinary weekday's 12:00 of March 2026: the Durlești suburb's kiosks some twenty times fewer than the centre's
_MD_PAYMENTS = {"centru": 900.0, "botanica": 560.0, "ciocana": 330.0, "durlesti": 45.0}
_MD_HOURS = [0.05, 0.03, 0.02, 0.02, 0.02, 0.04, 0.12, 0.35, 0.65, 0.85, 0.95, 1.0, 1.0, 0.95, 0.9, 0.9, 0.95,
             1.0, 0.95, 0.8, 0.6, 0.4, 0.22, 0.1]  # an ordinary weekday's hours, local midnight first (kiosks in 24h shops)
_MD_WEEKEND = (0.8, 0.55)  # Saturday, Sunday: the day's every hour
# Orthodox Holy Week (Easter Sunday 12 April 2026, the calendar's Easter Sunday and Monday): in no calendar, Great
# Thursday x1.15 and Great Friday x0.85 (until 15:00, x0.6 after: the churches' evening), Holy Saturday's shopping
# x1.3 until 18:00 and x0.4 after (the vigil's night); in the calendar, Easter Sunday x0.3 and Monday x0.5, the Day
# of Rejoicing (Memorial Easter, Monday 20 April) x0.45, and its eve (Sunday 19 April, in no calendar: the city
# gone to the villages' graves) x0.7 more than a Sunday
_MD_EASTER = date(2026, 4, 12)
_MD_MEMORIAL_EVE = 7  # days from Easter Sunday: the Sunday before the Day of Rejoicing
_MD_HOLIDAYS = {0: 0.3, 1: 0.5, 8: 0.45}  # the calendar's days by their distance from Easter Sunday (another x0.5)
_MD_NEW_MARKET = (datetime(2026, 4, 15, 10), "ciocana", 1.3)  # local: a new market's kiosks in Ciocana, from 10:00
_MD_HOST_DOWN = (date(2026, 3, 21), range(14, 18), 0.1)  # the processing host down a Saturday afternoon (x0.1)


def _md_hour(local: datetime, sector: str, cal: HolidayCalendar) -> float:
    """A sector's payments in a local hour against an ordinary weekday's 12:00: the hours, the week, Holy Week's
    days in no calendar, Easter and the Day of Rejoicing in it, the Memorial's eve and Ciocana's new market."""
    d, h = local.date(), local.hour
    f = _MD_HOURS[h] * (_MD_WEEKEND[d.weekday() - 5] if d.weekday() >= 5 else 1.0)
    days = (d - _MD_EASTER).days
    if days == -3:
        f *= 1.15
    elif days == -2:
        f *= 0.85 if h < 15 else 0.6
    elif days == -1:
        f *= 1.3 if h < 18 else 0.4
    elif days == _MD_MEMORIAL_EVE:
        f *= 0.7
    if cal.name(d):
        f *= _MD_HOLIDAYS.get(days, 0.5)
    if sector == _MD_NEW_MARKET[1] and local >= _MD_NEW_MARKET[0]:
        f *= _MD_NEW_MARKET[2]
    return f


def kiosks_chisinau_hourly(seed: int) -> Estate:
    """Blind (thirty-fifth round): a Chisinau payment-kiosk network's payments (utility bills, mobile top-ups,
    fines) per local hour by sector (four: the centre's 900 at an ordinary weekday's 12:00 of March 2026, Botanica's
    560, Ciocana's 330 and the Durlești suburb's 45, some twenty times fewer; in an order set by the seed), in
    Europe/Chisinau (two hours ahead of UTC in winter, three from Sunday 29 March 2026, 02:00 local skipped: a
    23-hour day in the history), on Moldova's holidays (the `holidays` package's MD: the Orthodox Easter Sunday 12
    April (x0.3) and Monday 13 April (x0.5), the Day of Rejoicing (Memorial Easter) Monday 20 April (x0.45)). Every
    hour holds rows (kiosks in 24-hour shops); a weekday's shape (`_MD_HOURS`: 11:00-12:00 the peak, 03:00 x0.02);
    Saturdays x0.8, Sundays x0.55. In no calendar: Holy Week's Great Thursday 9 April x1.15, Great Friday x0.85 until
    15:00 and x0.6 after, Holy Saturday's shopping x1.3 until 18:00 and x0.4 after (the Easter vigil's night), and
    the Memorial's eve Sunday 19 April x0.7 (the city gone to the villages' graves). From Wednesday 15 April 2026
    10:00 a new market's kiosks in Ciocana (x1.3, the others unmoved; accepted by the owner as a shift). The
    processing host was down on Saturday 21 March 2026 14:00-17:59 (x0.1 everywhere; unlabelled incidents, history
    only). Poisson counts with 7% extra noise per hour and sector; +1% a week. From Tuesday 10 March 2026 00:00 local
    (42 days, to Monday 20 April 23:00): 28 days of history (the clocks' change in it), from Tuesday 7 April 00:00
    evaluated (14 days); categories "holy_week" (Great Thursday and Friday), "holy_saturday", "holiday" (the
    calendar's days), "memorial_eve", "night" (00:00-05:59 of the other days), "after_shift" (the eighteen hours
    after the step)."""
    rng = random.Random(seed)
    zone = "Europe/Chisinau"
    cal = HolidayCalendar(country="MD")
    tz = ZoneInfo(zone)
    sectors = _unequal(rng, list(_MD_PAYMENTS))
    start, first = date(2026, 3, 10), date(2026, 4, 7)
    series, cats, incidents = [], {}, set()
    for k in range(42):
        d = start + timedelta(days=k)
        for h in range(24):
            local = datetime(d.year, d.month, d.day, h)
            at = _utc_hour(local, tz)
            if _local_hour(at, tz) != local:
                continue  # the hour the clocks skipped (02:00 on 29 March) does not exist
            down = d == _MD_HOST_DOWN[0] and h in _MD_HOST_DOWN[1]
            lift = (_MD_HOST_DOWN[2] if down else 1.0) * 1.01 ** (k / 7)
            values = [_poisson(rng, _MD_PAYMENTS[s] * _md_hour(local, s, cal) * lift * math.exp(rng.gauss(0, 0.07)))
                      for s in sectors]
            series.append((at, values))
            days = (d - _MD_EASTER).days
            if down:
                incidents.add(at)
            elif days in (-3, -2):
                cats[at] = "holy_week"
            elif days == -1:
                cats[at] = "holy_saturday"
            elif cal.name(d):
                cats[at] = "holiday"
            elif days == _MD_MEMORIAL_EVE:
                cats[at] = "memorial_eve"
            elif h < 6:
                cats[at] = "night"
    stamps = [at for at, _ in series]
    shift = _utc_hour(_MD_NEW_MARKET[0], tz)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(at, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("kiosks_chisinau_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# the King Fahd Causeway's crossings into Bahrain per day by lane group, at its base level of January 2023 (a
# Monday): the bus lanes some eighty times fewer than the Saudi cars'
_BH_CROSSINGS = {"saudi_cars": 24_000.0, "bahraini_cars": 8_500.0, "gcc_cars": 2_800.0, "trucks": 3_100.0,
                 "buses": 300.0}
# each group's week, Monday first: a Friday-Saturday weekend on both sides (the Saudi visitors arrive on Thursday
# evening and Friday); the trucks' customs lanes on a skeleton shift on Friday
_BH_WEEKS = {"saudi_cars": (0.8, 0.8, 0.9, 1.45, 1.35, 1.05, 0.75), "bahraini_cars": (0.9, 0.9, 1.0, 1.2, 1.3, 1.1, 0.85),
             "gcc_cars": (0.8, 0.8, 0.9, 1.4, 1.35, 1.05, 0.8), "trucks": (1.05, 1.05, 1.05, 0.95, 0.25, 0.6, 1.1),
             "buses": (0.9, 0.9, 0.9, 1.4, 1.3, 1.0, 0.9)}
_BH_CARS = ("saudi_cars", "gcc_cars")  # the visitors
# the calendar's Eids: the visitors x1.8, Bahrainis x1.3, trucks x0.15, buses x1.5; another holiday: cars x1.1,
# trucks x0.5 (National Day's fireworks: the visitors x1.2, trucks x0.4)
_BH_EID = {"saudi_cars": 1.8, "gcc_cars": 1.8, "bahraini_cars": 1.3, "trucks": 0.15, "buses": 1.5}
# Ramadan (the 29 days before the calendar's first Eid al-Fitr day; in no calendar): the visitors x0.65, Bahrainis
# x0.8, trucks x0.9, buses x0.6
_BH_RAMADAN = {"saudi_cars": 0.65, "gcc_cars": 0.65, "bahraini_cars": 0.8, "trucks": 0.9, "buses": 0.6}
# Saudi Arabia's own days off (in no calendar of Bahrain's): Founding Day 22 February, National Day 23 September:
# the Saudi cars x1.7, the buses x1.4
_BH_SAUDI_DAYS = ((2, 22), (9, 23))
# the Grand Prix's race days (their dates move weeks between years; in no calendar): the visitors x1.35 from the
# Thursday before to the race day
_BH_GRAND_PRIX = (date(2023, 3, 5), date(2024, 3, 2), date(2025, 4, 13))
_BH_SUMMER = ((7, 8), {"saudi_cars": 0.85, "gcc_cars": 0.85, "bahraini_cars": 0.8})  # July-August, families abroad
_BH_ONE_STOP = date(2025, 6, 1)  # one-stop customs pre-clearance for trucks (a Sunday): trucks x1.3
# the Saudi side's customs system down Tuesday 14 to Thursday 16 November 2023 (trucks x0.05), its backlog worked off
# over the next seven days (x1.6 the first, falling by a seventh of the excess each day)
_BH_CUSTOMS_DOWN = (date(2023, 11, 14), 3, 0.05, 7, 0.6)


def _bh_ramadan(d: date, cal: HolidayCalendar) -> bool:
    """`d` in Ramadan: the 29 days before the calendar's first Eid al-Fitr day of `d`'s year."""
    eid = _eid_al_fitr_first(cal, d.year)
    return eid - timedelta(days=29) <= d < eid


def _bh_grand_prix(d: date) -> bool:
    """`d` in a Grand Prix weekend: the Thursday before the race to the race day."""
    return any(0 <= (race - d).days <= (race.weekday() - 3) % 7 for race in _BH_GRAND_PRIX)


def _bh_customs(d: date) -> float:
    """The trucks' factor around the customs outage: stopped, then the backlog worked off over a week."""
    first, down, low, backlog, excess = _BH_CUSTOMS_DOWN
    k = (d - first).days
    if 0 <= k < down:
        return low
    if down <= k < down + backlog:
        return 1.0 + excess * (down + backlog - k) / backlog
    return 1.0


def _bh_day(d: date, group: str, cal: HolidayCalendar) -> float:
    """A lane group's crossings on `d` against its base level: its week, the calendar's Eids and holidays, Ramadan,
    Saudi Arabia's days off, the Grand Prix, the summer and the trucks' one-stop customs."""
    f = _BH_WEEKS[group][d.weekday()]
    name = cal.name(d) or ""
    if "Eid" in name:
        f *= _BH_EID[group]
    elif name:
        national = name == "National Day"
        f *= (0.4 if national else 0.5) if group == "trucks" else (1.2 if national else 1.1)
    elif _bh_ramadan(d, cal):
        f *= _BH_RAMADAN[group]
    if (d.month, d.day) in _BH_SAUDI_DAYS and group in ("saudi_cars", "buses"):
        f *= 1.7 if group == "saudi_cars" else 1.4
    if _bh_grand_prix(d) and group in _BH_CARS:
        f *= 1.35
    if d.month in _BH_SUMMER[0]:
        f *= _BH_SUMMER[1].get(group, 1.0)
    if group == "trucks":
        f *= (1.3 if d >= _BH_ONE_STOP else 1.0) * _bh_customs(d)
    return f


def crossings_bh(seed: int) -> Estate:
    """Blind (thirty-fifth round): the King Fahd Causeway's crossings into Bahrain per day by lane group (five: the
    Saudi cars' 24,000 at the base level of January 2023, the Bahraini cars' 8,500, the other Gulf cars' 2,800, the
    trucks' 3,100 and the buses' 300, some eighty times fewer; in an order set by the seed), on Bahrain's holidays
    (the `holidays` package's BH: the Eids al-Fitr and al-Adha, three days each (the visitors x1.8, Bahrainis x1.3,
    trucks x0.15, buses x1.5), National Day 16-17 December (the visitors x1.2, trucks x0.4), New Year, Labour Day,
    the Islamic New Year, Ashura's two days and the Prophet's Birthday (cars x1.1, trucks x0.5)). A Friday-Saturday
    weekend, each group's own week (`_BH_WEEKS`: the Saudi cars x1.45 on Thursday, x0.75 on Sunday; the trucks x0.25
    on Friday). In no calendar: Ramadan (the 29 days before the first Eid al-Fitr day: the visitors x0.65, Bahrainis
    x0.8, buses x0.6, trucks x0.9); Saudi Arabia's Founding Day 22 February and National Day 23 September (the Saudi
    cars x1.7, the buses x1.4); the Grand Prix's weekends, weeks apart between years (Thursday to race day: 2-5 March
    2023, 29 February-2 March 2024, 10-13 April 2025; the visitors x1.35); July and August (families abroad: the
    visitors x0.85, Bahrainis x0.8). From Sunday 1 June 2025 one-stop customs pre-clearance (trucks x1.3, the others
    unmoved; accepted by the owner as a shift). The Saudi side's customs system was down Tuesday 14 to Thursday 16
    November 2023 (trucks x0.05) and the backlog worked off over the next seven days (x1.6 falling to x1.09; ten
    unlabelled incidents, history only). Poisson counts with 5% extra noise per group; +4% a year. From Monday 2
    January 2023 (1,003 days, to Tuesday 30 September 2025): from Monday 2 September 2024 evaluated; categories
    "eid", "holiday", "ramadan", "saudi_holiday", "grand_prix", "summer", "after_shift" (the four weeks after the
    step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BH")
    groups = _unequal(rng, list(_BH_CROSSINGS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.04 ** (i / 365.25)
        values = [_poisson(rng, _BH_CROSSINGS[g] * _bh_day(d, g, cal) * lift * math.exp(rng.gauss(0, 0.05)))
                  for g in groups]
        series.append((at, values))
        name = cal.name(d) or ""
        if _bh_customs(d) != 1.0:
            incidents.add(at)
        elif "Eid" in name:
            cats[at] = "eid"
        elif name:
            cats[at] = "holiday"
        elif _bh_ramadan(d, cal):
            cats[at] = "ramadan"
        elif (d.month, d.day) in _BH_SAUDI_DAYS:
            cats[at] = "saudi_holiday"
        elif _bh_grand_prix(d):
            cats[at] = "grand_prix"
        elif d.month in _BH_SUMMER[0]:
            cats[at] = "summer"
    shift = datetime(_BH_ONE_STOP.year, _BH_ONE_STOP.month, _BH_ONE_STOP.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("crossings_bh", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Namibian fuel retailer's card transactions per day by town, at its base level of January 2023 (a Monday):
# Lüderitz's station some twenty times fewer than Windhoek's
_NA_TRANSACTIONS = {"windhoek": 9_000.0, "swakopmund": 3_200.0, "walvis_bay": 2_600.0, "oshakati": 2_100.0,
                    "keetmanshoop": 900.0, "luderitz": 420.0}
_NA_WEEK = [0.95, 0.9, 0.9, 1.0, 1.3, 1.05, 0.8]  # Monday first: Friday's fill-up before the weekend
# the coast's summer season (the schools' December holidays, spanning the new year; in no calendar): the inland
# towns' families at the coast (Swakopmund x2.3, Walvis Bay x1.6, Lüderitz x1.3), the workers home in the north
# (Oshakati x1.4), the B1 south (Keetmanshoop x1.2), the capital emptied (Windhoek x0.75)
_NA_COAST_SEASONS = ((date(2022, 12, 7), date(2023, 1, 10)), (date(2023, 12, 6), date(2024, 1, 9)),
                     (date(2024, 12, 4), date(2025, 1, 14)))
_NA_SEASON = {"swakopmund": 2.3, "walvis_bay": 1.6, "luderitz": 1.3, "oshakati": 1.4, "keetmanshoop": 1.2,
              "windhoek": 0.75}
# the Easter exodus to the coast on the Thursday before Good Friday (in no calendar): x1.3, the coast x1.4; the
# calendar's Good Friday and Easter Monday: the coast x1.5, the others x0.8; another holiday x0.75
_NA_COAST = ("swakopmund", "walvis_bay", "luderitz")
# the months whose pump price rose on their first Wednesday (announced days before; in no calendar): the eve (the
# Tuesday before) x1.3 everywhere, the Wednesday x0.9
_NA_PRICE_RISES = ((2023, 2), (2023, 5), (2023, 9), (2023, 10), (2024, 4), (2024, 5), (2025, 2), (2025, 4),
                   (2025, 7))
_NA_HARBOUR = date(2025, 5, 12)  # a new station at Walvis Bay's harbour (a Monday): Walvis Bay x1.35
_NA_SWITCH_DOWN = date(2023, 9, 16)  # the national card switch down most of a Saturday (x0.3 everywhere)


def _na_price_day(d: date) -> int:
    """1 on the eve of a price rise (the Tuesday before its month's first Wednesday), 2 on that Wednesday, else 0."""
    for y, m in _NA_PRICE_RISES:
        wednesday = date(y, m, 1) + timedelta(days=(2 - date(y, m, 1).weekday()) % 7)
        if d == wednesday - timedelta(days=1):
            return 1
        if d == wednesday:
            return 2
    return 0


def _na_day(d: date, town: str, cal: HolidayCalendar) -> float:
    """A town's transactions on `d` against its ordinary Monday: the week, the coast's summer season, Easter's
    exodus, the holidays, the price rises' eves and Walvis Bay's harbour station."""
    f = _NA_WEEK[d.weekday()]
    if _mg_span(d, _NA_COAST_SEASONS):
        f *= _NA_SEASON[town]
    name = cal.name(d) or ""
    if d == _easter(d.year) - timedelta(days=3):
        f *= 1.4 if town in _NA_COAST else 1.3
    elif name in ("Good Friday", "Easter Monday"):
        f *= 1.5 if town in _NA_COAST else 0.8
    elif name:
        f *= 0.75
    f *= (1.0, 1.3, 0.9)[_na_price_day(d)]
    if town == "walvis_bay" and d >= _NA_HARBOUR:
        f *= 1.35
    return f


def forecourts_na(seed: int) -> Estate:
    """Blind (thirty-fifth round): a Namibian fuel retailer's card transactions per day by town (six: Windhoek's
    9,000 at its base level of January 2023 (a Monday x0.95), Swakopmund's 3,200, Walvis Bay's 2,600, Oshakati's
    2,100, Keetmanshoop's 900 and Lüderitz's 420, some twenty times fewer; in an order set by the seed), on Namibia's
    holidays (the `holidays` package's NA: New Year, Independence Day 21 March, Good Friday, Easter Monday, Workers'
    Day, Cassinga Day, Ascension, Africa Day, Genocide Remembrance Day (from 2025), Heroes' Day, the Women's and
    Human Rights Day, Christmas and Family Day, Sundays' holidays observed on the Monday, two presidents' burial
    days (25 February 2024, 1 March 2025) and the general election's 27 November 2024): Good Friday and Easter
    Monday the coast x1.5, the others x0.8; another holiday x0.75. The week (`_NA_WEEK`: Friday x1.3, Sunday x0.8).
    In no calendar: the coast's summer season, the schools' December holidays spanning the new year (7 December 2022
    to 10 January 2023, 6 December 2023 to 9 January 2024, 4 December 2024 to 14 January 2025: Swakopmund x2.3,
    Walvis Bay x1.6, Lüderitz x1.3, Oshakati x1.4 (the workers home in the north), Keetmanshoop x1.2, Windhoek
    x0.75); Easter's exodus on the Thursday before Good Friday (the coast x1.4, the others x1.3); the eve of a
    pump-price rise (the Tuesday before the first Wednesday of nine months: x1.3 everywhere, x0.9 the Wednesday).
    From Monday 12 May 2025 a new station at Walvis Bay's harbour (x1.35, the others unmoved; accepted by the owner as a shift). The national card switch was
    down most of Saturday 16 September 2023 (x0.3 everywhere; an unlabelled incident, history only). Poisson counts
    with 5% extra noise per town; +6% a year. From Monday 2 January 2023 (1,003 days, to Tuesday 30 September 2025):
    from Monday 2 September 2024 evaluated; categories "coast_season", "easter_exodus", "holiday", "price_eve" (the
    eve and the Wednesday), "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NA")
    towns = _unequal(rng, list(_NA_TRANSACTIONS))
    start, n = date(2023, 1, 2), 1003
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.3 if d == _NA_SWITCH_DOWN else 1.0) * 1.06 ** (i / 365.25)
        values = [_poisson(rng, _NA_TRANSACTIONS[t] * _na_day(d, t, cal) * lift * math.exp(rng.gauss(0, 0.05)))
                  for t in towns]
        series.append((at, values))
        if d == _NA_SWITCH_DOWN:
            incidents.add(at)
        elif _mg_span(d, _NA_COAST_SEASONS):
            cats[at] = "coast_season"
        elif d == _easter(d.year) - timedelta(days=3):
            cats[at] = "easter_exodus"
        elif cal.name(d):
            cats[at] = "holiday"
        elif _na_price_day(d):
            cats[at] = "price_eve"
    shift = datetime(_NA_HARBOUR.year, _NA_HARBOUR.month, _NA_HARBOUR.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    return Estate("forecourts_na", "day", series, 609, cal, cats, [shift], incidents=incidents)


# a Paraguayan farmers' cooperative's invoice lines per month by business line, at its base level of January 2021:
# the veterinary counter some twenty times fewer than the supermarket's
_PY_LINES = {"supermarket": 9_000.0, "agro_inputs": 4_200.0, "veterinary": 450.0}
_PY_FISCAL_YEAR_END = 4  # the cooperative's fiscal year runs May to April, after the soy harvest's sales
_PY_YEAR_END = 1.15  # April: the year's close (stock counts' adjustment lines, members' statements)
# the farm inputs' season by month (in no calendar): soy planting September to November, the second crop (zafriña)
# January and February, the harvest March and April, the winter wheat's sowing May and June, July and August quiet
_PY_INPUTS = {1: 1.3, 2: 1.2, 3: 0.8, 4: 0.8, 5: 1.1, 6: 1.1, 7: 0.6, 8: 0.7, 9: 1.5, 10: 2.0, 11: 1.6, 12: 0.9}
_PY_AGUINALDO = (12, 1.35, 0.9)  # the thirteenth month paid in December: the supermarket x1.35, January x0.9
_PY_VACCINATION = ((5, 11), 1.6)  # the foot-and-mouth vaccination campaigns (May, November): the veterinary x1.6
_PY_SECOND_STORE = date(2025, 3, 31)  # from March 2025's invoices: a second supermarket in the colony (x1.25)
_PY_MIGRATION = (date(2022, 8, 31), "agro_inputs", 0.5)  # August 2022: the new ERP keyed half the inputs' lines


def _py_working_days(end: date, cal: HolidayCalendar) -> float:
    """The month's working days: weekdays but holidays, Saturday mornings as half a day."""
    days = [date(end.year, end.month, k) for k in range(1, end.day + 1)]
    return sum(1.0 if d.weekday() < 5 else 0.5 for d in days if d.weekday() < 6 and not cal.name(d))


def _py_month(end: date, line: str, i: int, cal: HolidayCalendar) -> float:
    """A business line's invoice lines in the month ending on `end` (the `i`-th): the supermarket by the month's
    days, the counters by its working days, the farm season, the thirteenth month, the vaccination campaigns, the
    fiscal year's close and the second store; +0.4% a month."""
    f = 1.004 ** i
    if line == "supermarket":
        f *= end.day / 30.4
        f *= _PY_AGUINALDO[1] if end.month == 12 else _PY_AGUINALDO[2] if end.month == 1 else 1.0
        f *= 1.25 if end >= _PY_SECOND_STORE else 1.0
    else:
        f *= _py_working_days(end, cal) / 23.0
        f *= _PY_INPUTS[end.month] if line == "agro_inputs" else 1.0
        f *= _PY_VACCINATION[1] if line == "veterinary" and end.month in _PY_VACCINATION[0] else 1.0
    if end.month == _PY_FISCAL_YEAR_END:
        f *= _PY_YEAR_END
    return _PY_LINES[line] * f


def coop_py_monthly(seed: int) -> Estate:
    """Blind (thirty-fifth round): a Paraguayan farmers' cooperative's invoice lines per month by business line
    (three: the supermarket's 9,000 at its base level of January 2021, the farm inputs' 4,200 (seed, fertiliser,
    agrochemicals) and the veterinary counter's 450, some twenty times fewer; in an order set by the seed), one
    partition a month dated on its last day, on Paraguay's holidays (the `holidays` package's PY: Patriots' Day (moved
    between years), Maundy Thursday and Good Friday, Independence 14-15 May, the Chaco Armistice, 15 August, Boquerón,
    Caacupé 8 December, Christmas, New Year) with a fiscal year from May to April (configured by the owner,
    `fiscal_year_end: 4`). The supermarket by the month's days, the counters by its working days (weekdays but
    holidays, Saturday mornings as half: Holy Week's month the poorer). April's year-end close x1.15 (stock counts'
    adjustment lines, members' statements). In no calendar: the farm inputs' season (`_PY_INPUTS`: soy planting
    October x2.0, September x1.5, November x1.6, the second crop January x1.3 and February x1.2, July x0.6); the
    thirteenth month (aguinaldo) paid in December (the supermarket x1.35, January x0.9); the foot-and-mouth
    vaccination campaigns in May and November (the veterinary x1.6). From March 2025's invoices a second supermarket
    in the colony (x1.25, the others unmoved; accepted by the owner as a shift). The new ERP keyed half the farm
    inputs' lines of August 2022, never redone (x0.5; an unlabelled incident, history only). 3% noise per line and
    month; +0.4% a month. From 31 January 2021 (60 month-ends, to 31 December 2025): three years read, from 31
    January 2024 evaluated (24 months); categories "year_end" (April), "planting" (September to November),
    "aguinaldo" (December), "zafrina" (January and February), "vaccination" (May), "after_shift" (the three months
    after the step, where no other category names them)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PY", fiscal_year_end=_PY_FISCAL_YEAR_END)
    lines = _unequal(rng, list(_PY_LINES))
    series, cats = [], {}
    incident = datetime(_PY_MIGRATION[0].year, _PY_MIGRATION[0].month, _PY_MIGRATION[0].day)
    for i, end in enumerate(_month_ends(date(2021, 1, 1), 60)):
        at = datetime(end.year, end.month, end.day)
        values = [_noisy(rng, _py_month(end, line, i, cal) * (_PY_MIGRATION[2] if (end, line) == _PY_MIGRATION[:2]
                                                                else 1.0), 0.03) for line in lines]
        series.append((at, values))
        if at == incident:
            continue
        if end.month == _PY_FISCAL_YEAR_END:
            cats[at] = "year_end"
        elif end.month in (9, 10, 11):
            cats[at] = "planting"
        elif end.month == 12:
            cats[at] = "aguinaldo"
        elif end.month in (1, 2):
            cats[at] = "zafrina"
        elif end.month == 5:
            cats[at] = "vaccination"
    shift = datetime(_PY_SECOND_STORE.year, _PY_SECOND_STORE.month, _PY_SECOND_STORE.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 4]:
        cats.setdefault(at, "after_shift")
    return Estate("coop_py_monthly", "day", series, 36, cal, cats, [shift], incidents={incident})


# a Havana private grocery chain's (mipymes') card and QR receipts per local hour by municipality, at an ordinary
# weekday's 12:00 of September 2026: Habana del Este's shop some eighteen times smaller than Plaza's
_CU_RECEIPTS = {"plaza": 620.0, "centro_habana": 480.0, "playa": 300.0, "habana_del_este": 35.0}
_CU_HOURS = [0.04, 0.02, 0.01, 0.01, 0.01, 0.02, 0.08, 0.3, 0.6, 0.8, 0.9, 0.95, 1.0, 0.95, 0.85, 0.8, 0.85,
             0.95, 1.0, 0.9, 0.7, 0.45, 0.2, 0.08]  # an ordinary weekday's hours, local midnight first
_CU_WEEKEND = (1.1, 0.7)  # Saturday, Sunday: the day's every hour
# the utility's rotating blackout blocks (in no calendar; Plaza's circuit, with the hospitals and ministries, is
# never cut): each day one of the other three municipalities dark for four hours (their shops' card readers x0.15,
# a few on generators), the municipality turning daily and the block's start (10:00, 14:00, 18:00) every third day
_CU_CUT = ("centro_habana", "playa", "habana_del_este")
_CU_BLOCKS = (10, 14, 18)
_CU_BLACKOUT = 0.15
# a tropical storm passing west of the city (in no calendar): its eve's run on water and food from 12:00 x1.5, its
# day's afternoon and evening x0.5 everywhere (the grid shut down ahead of the winds)
_CU_STORM = date(2026, 10, 29)
_CU_NEW_SHOP = (datetime(2026, 11, 3, 10), "playa", 1.35)  # local: a new supermarket in Playa joins the chain
_CU_GATEWAY_DOWN = (date(2026, 10, 17), range(15, 19), 0.1)  # the payment gateway down a Saturday afternoon


def _cu_cut(local: datetime, start: date) -> str | None:
    """The municipality whose blackout block holds this local hour, if any (the day's rotation counted from
    `start`)."""
    k = (local.date() - start).days
    first = _CU_BLOCKS[(k // 3) % len(_CU_BLOCKS)]
    return _CU_CUT[k % len(_CU_CUT)] if first <= local.hour < first + 4 else None


def _cu_hour(local: datetime, shop: str, cal: HolidayCalendar, start: date) -> float:
    """A municipality's receipts in a local hour against an ordinary weekday's 12:00: the hours, the week, the
    calendar's holidays, the blackout blocks, the storm and its eve, and Playa's new supermarket."""
    d, h = local.date(), local.hour
    f = _CU_HOURS[h] * (_CU_WEEKEND[d.weekday() - 5] if d.weekday() >= 5 else 1.0)
    if cal.name(d):
        f *= 0.6
    if _cu_cut(local, start) == shop:
        f *= _CU_BLACKOUT
    if d == _CU_STORM - timedelta(days=1) and h >= 12:
        f *= 1.5
    elif d == _CU_STORM and h >= 12:
        f *= 0.5
    if shop == _CU_NEW_SHOP[1] and local >= _CU_NEW_SHOP[0]:
        f *= _CU_NEW_SHOP[2]
    return f


def shops_havana_hourly(seed: int) -> Estate:
    """Blind (thirty-sixth round): a Havana private grocery chain's (mipymes') card and QR receipts per local hour by
    municipality (four: Plaza's 620 at an ordinary weekday's 12:00 of September 2026, Centro Habana's 480, Playa's
    300 and Habana del Este's 35, some eighteen times fewer; in an order set by the seed), in America/Havana (four
    hours behind UTC in summer time, five from Sunday 1 November 2026, whose clocks go back at 01:00 to 00:00: local
    midnight happens twice, a 25-hour day inside the evaluated fortnight), on Cuba's holidays (the `holidays`
    package's CU: Independence Day Saturday 10 October 2026, in the history, x0.6). Every hour holds rows (a
    weekday's shape `_CU_HOURS`: 12:00 and 18:00 the peaks, 03:00 x0.01); Saturdays x1.1, Sundays x0.7. In no
    calendar: the utility's rotating blackout blocks (`_cu_cut`: Plaza's circuit never cut; each day one of the
    other three municipalities dark for four hours, x0.15, the municipality turning daily and the block's start
    10:00, 14:00 or 18:00 every third day); a tropical storm passing west of the city on Thursday 29 October 2026
    (its eve from 12:00 x1.5, its own afternoon and evening x0.5 everywhere). From Tuesday 3 November 2026 10:00 a
    new supermarket in Playa (x1.35, the others unmoved; accepted by the owner as a shift). The payment gateway was
    down on Saturday 17 October 2026 15:00-18:59 (x0.1 everywhere; unlabelled incidents, history only). Poisson
    counts with 8% extra noise per hour and municipality; +0.5% a week. From Tuesday 29 September 2026 00:00 local
    (41 days of local hours, to Sunday 8 November 23:00): 28 days of history, from Tuesday 27 October 00:00
    evaluated (13 local days, 313 hours: a fortnight's span with the repeated hour); categories "storm_eve" and "storm" (their hours from 12:00), "fall_back" (the
    clocks' 25-hour Sunday), "blackout" (the hours of a block), "night" (00:00-05:59 of the other days),
    "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "America/Havana"
    cal = HolidayCalendar(country="CU")
    tz = ZoneInfo(zone)
    shops = _unequal(rng, list(_CU_RECEIPTS))
    start, first = date(2026, 9, 29), date(2026, 10, 27)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 11, 9), tz)
    fall_back = date(2026, 11, 1)
    series, cats, incidents = [], {}, set()
    while at < end:  # UTC hours: the hour the clocks repeat is two partitions of the same local wall-clock hour
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _CU_GATEWAY_DOWN[0] and h in _CU_GATEWAY_DOWN[1]
        lift = (_CU_GATEWAY_DOWN[2] if down else 1.0) * 1.005 ** ((d - start).days / 7)
        values = [_poisson(rng, _CU_RECEIPTS[s] * _cu_hour(local, s, cal, start) * lift * math.exp(rng.gauss(0, 0.08)))
                  for s in shops]
        series.append((at, values))
        if down:
            incidents.add(at)
        elif d == _CU_STORM - timedelta(days=1) and h >= 12:
            cats[at] = "storm_eve"
        elif d == _CU_STORM and h >= 12:
            cats[at] = "storm"
        elif d == fall_back:
            cats[at] = "fall_back"
        elif _cu_cut(local, start):
            cats[at] = "blackout"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_CU_NEW_SHOP[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("shops_havana_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Brunei food and grocery delivery app's orders per day by district, at its base level of January 2023 (a Monday):
# Temburong's riders (launched inside the evaluated window) some forty times fewer than Brunei-Muara's
_BN_ORDERS = {"brunei_muara": 5_200.0, "belait": 1_500.0, "tutong": 900.0, "temburong": 130.0}
# Monday first: Brunei's split weekend, Friday and Sunday off and Saturday a working day (Friday's lunch hours shut
# for the prayers, its evening the week's busiest; Sunday's family orders)
_BN_WEEK = (1.0, 0.95, 0.95, 1.0, 1.2, 0.9, 1.3)
# Ramadan (from the calendar's First Day of Ramadan, itself a holiday, to the day before Eid al-Fitr; in no calendar
# but its first day): iftar deliveries x1.3, its last ten days x1.45 (Hari Raya's cakes and hampers); the calendar's
# Eid al-Fitr days x0.55 (the open houses at home), Eid al-Adha x0.8, another holiday x1.15
_BN_RAMADAN = (1.3, 1.45, 10)
# the app's "double date" sales (in no calendar): the day whose day of the month equals its month (3 March, 11
# November, 12 December...), x1.6 everywhere
_BN_DOUBLE_DATE = 1.6
_BN_TEMBURONG = date(2026, 2, 2)  # a Monday: the app's riders launched in Temburong (zero orders before)
_BN_CHECKOUT_BROKEN = date(2024, 8, 10)  # a release broke checkout most of a Saturday (x0.4 everywhere)


def _bn_ramadan_days(cal: HolidayCalendar, years: range) -> dict[date, int]:
    """Ramadan's days by their distance to Eid al-Fitr (1 on its last day): from the calendar's First Day of
    Ramadan to the day before its first Eid al-Fitr day, each year."""
    out = {}
    for y in years:
        days = _holiday_days(cal, y)
        first = min(d for d in days if "First Day of Ramadan" in (cal.name(d) or ""))
        eid = _eid_al_fitr_first(cal, y)
        out |= {first + timedelta(days=k): (eid - first).days - k for k in range((eid - first).days)}
    return out


def _bn_day(d: date, district: str, cal: HolidayCalendar, ramadan: dict[date, int]) -> float:
    """A district's orders on `d` against its base level: the split weekend, Ramadan, the Eids and holidays, the
    double dates and Temburong's launch."""
    if district == "temburong" and d < _BN_TEMBURONG:
        return 0.0
    f = _BN_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if d in ramadan:
        f *= _BN_RAMADAN[1] if ramadan[d] <= _BN_RAMADAN[2] else _BN_RAMADAN[0]
    elif "Eid al-Fitr" in name:
        f *= 0.55
    elif "Eid al-Adha" in name:
        f *= 0.8
    elif name:
        f *= 1.15
    if d.day == d.month:
        f *= _BN_DOUBLE_DATE
    return f


def deliveries_bn(seed: int) -> Estate:
    """Blind (thirty-sixth round): a Brunei food and grocery delivery app's orders per day by district (four:
    Brunei-Muara's 5,200 at its base level of January 2023 (a Monday), Belait's 1,500, Tutong's 900 and Temburong's
    130, some forty times fewer, launched inside the evaluated window; in an order set by the seed), on Brunei's
    holidays (the `holidays` package's BN: New Year, Isra' and Mi'raj, Lunar New Year, National Day 23 February,
    the First Day of Ramadan, Nuzul al-Quran, Eid al-Fitr's three or four days (x0.55), Eid al-Adha (x0.8), Armed
    Forces Day, the Islamic New Year, the Sultan's Birthday 15 July, the Prophet's Birthday, Christmas, a holiday on
    a Friday or Sunday observed the next day; another holiday x1.15). A split weekend (`_BN_WEEK`: Friday x1.2 and Sunday
    x1.3 off, Saturday a working day x0.9). In no calendar: Ramadan but its first day (the calendar's First Day of
    Ramadan to the day before Eid al-Fitr: x1.3, its last ten days x1.45); the app's double-date sales (1 January,
    2 February, 3 March ... 12 December: x1.6 everywhere). From Monday 2 February 2026 the app's riders in Temburong
    (zero orders before, then its 130 a day: a group launched beside old ones; accepted by the owner as a shift). A
    release broke checkout most of Saturday 10 August 2024 (x0.4 everywhere; an unlabelled incident, history only).
    Poisson counts with 6% extra noise per district; +9% a year. From Monday 2 January 2023 (1,280 days, to Saturday
    4 July 2026): from Thursday 1 May 2025 evaluated (850 days of history); categories "ramadan", "eid" (Eid
    al-Fitr's and Eid al-Adha's days), "holiday", "double_date", "after_shift" (the four weeks after the launch)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BN")
    districts = _unequal(rng, list(_BN_ORDERS))
    start, n = date(2023, 1, 2), 1280
    ramadan = _bn_ramadan_days(cal, range(2023, 2027))
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (0.4 if d == _BN_CHECKOUT_BROKEN else 1.0) * 1.09 ** (i / 365.25)
        values = [_poisson(rng, _BN_ORDERS[g] * _bn_day(d, g, cal, ramadan) * lift * math.exp(rng.gauss(0, 0.06)))
                  for g in districts]
        series.append((at, values))
        name = cal.name(d) or ""
        if d == _BN_CHECKOUT_BROKEN:
            incidents.add(at)
        elif d in ramadan:
            cats[at] = "ramadan"
        elif "Eid" in name:
            cats[at] = "eid"
        elif name:
            cats[at] = "holiday"
        elif d.day == d.month:
            cats[at] = "double_date"
    shift = datetime(_BN_TEMBURONG.year, _BN_TEMBURONG.month, _BN_TEMBURONG.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    first = datetime(2025, 5, 1)
    return Estate("deliveries_bn", "day", series, [at for at, _ in series].index(first), cal, cats, [shift],
                  incidents=incidents)


# a Baku confectionery chain's orders (cakes, pakhlava, shekerbura) per day by city, at its base level of January
# 2023 (a Monday): Shaki's shop some twenty-three times smaller than Baku's
_AZ_ORDERS = {"baku": 6_000.0, "sumqayit": 1_400.0, "ganja": 1_100.0, "lankaran": 500.0, "shaki": 260.0}
_AZ_WEEK = (0.95, 0.95, 0.95, 1.0, 1.1, 1.2, 0.85)  # Monday first: Saturday's family visits
# the four Tuesdays before Novruz (Çərşənbə: Water, Fire, Wind and Earth Tuesday, the last the biggest; in no
# calendar), the last first: the sweets' trays bought for the festival
_AZ_TUESDAYS = (2.4, 1.8, 1.5, 1.35)
# the calendar's Novruz (Spring Festival) days x0.6 (the trays already bought, shops shut), the Eids' first days x0.8
# and their eves x1.5 (in no calendar), New Year's eve (31 December, the calendar's Solidarity Day) x1.9 and the
# 30th (in no calendar) x1.5 (the New Year's cakes), another holiday x0.85
_AZ_NEW_YEAR = (1.9, 1.5)
# the old order system's export (its first ten weeks: a basket of several trays counted as one order, x0.9), then
# four weeks with no rows for any city while the orders moved to the new system (no partition), then the new system
_AZ_OLD_SYSTEM = (date(2023, 3, 13), 0.9)
_AZ_MIGRATION_GAP = (date(2023, 3, 13), date(2023, 4, 10))  # no rows: the first day and the day after the gap's last
_AZ_MARKETPLACE = date(2025, 10, 6)  # a Monday: the chain's shops on a delivery marketplace in Baku (x1.3)
_AZ_OVEN_DOWN = (date(2024, 5, 18), "ganja", 0.2)  # Ganja's bakery oven down a Saturday (x0.2)


def _az_tuesday(d: date) -> int | None:
    """0 on the last Tuesday before Novruz (20 March), 1-3 on the three before it, else None."""
    novruz = date(d.year, 3, 20)
    last = novruz - timedelta(days=(novruz.weekday() - 1) % 7 or 7)
    k, r = divmod((last - d).days, 7)
    return k if r == 0 and 0 <= k < len(_AZ_TUESDAYS) else None


def _az_eid_eve(d: date, cal: HolidayCalendar) -> bool:
    """`d` the eve of an Eid's first day (an Eid day tomorrow, not an observed one, and none today)."""
    tomorrow = cal.name(d + timedelta(days=1)) or ""
    return "Eid" in tomorrow and "observed" not in tomorrow and "Eid" not in (cal.name(d) or "")


def _az_day(d: date, city: str, cal: HolidayCalendar) -> float:
    """A city's orders on `d` against its base level: the week, Novruz's Tuesdays and days, the Eids and their eves,
    New Year's eve and the day before, the holidays, the old system's counting and Baku's marketplace."""
    f = _AZ_WEEK[d.weekday()]
    name = cal.name(d) or ""
    tuesday = _az_tuesday(d)
    if tuesday is not None:
        f *= _AZ_TUESDAYS[tuesday]
    if (d.month, d.day) == (12, 31):
        f *= _AZ_NEW_YEAR[0]
    elif (d.month, d.day) == (12, 30):
        f *= _AZ_NEW_YEAR[1]
    elif "Spring Festival" in name:
        f *= 0.6
    elif "Eid" in name:
        f *= 0.8
    elif _az_eid_eve(d, cal):
        f *= 1.5
    elif name:
        f *= 0.85
    if d < _AZ_OLD_SYSTEM[0]:
        f *= _AZ_OLD_SYSTEM[1]
    if city == "baku" and d >= _AZ_MARKETPLACE:
        f *= 1.3
    return f


def sweets_az(seed: int) -> Estate:
    """Blind (thirty-sixth round): a Baku confectionery chain's orders (cakes, pakhlava, shekerbura) per day by city
    (five: Baku's 6,000 at its base level of January 2023 (a Monday), Sumqayit's 1,400, Ganja's 1,100, Lankaran's 500
    and Shaki's 260, some twenty-three times fewer; in an order set by the seed), on Azerbaijan's holidays (the
    `holidays` package's AZ: New Year's two days, Martyrs' Day, Women's Day, Novruz (the Spring Festival) 20-24 March
    and its observed days (x0.6), Eid al-Fitr and Eid al-Adha (x0.8; in 2026 Eid al-Fitr falls on Novruz's first
    days), Victory over Fascism, Independence, National Liberation, Armed Forces, Victory and Flag Days, the
    Solidarity Day on 31 December (New Year's eve: x1.9), the substituted days off; another holiday x0.85). The week
    (`_AZ_WEEK`: Saturday x1.2, Sunday x0.85). In no calendar: Novruz's four Tuesdays (Çərşənbə: the last Tuesday
    before 20 March x2.4, the three before it x1.8, x1.5, x1.35); the Eids' eves (x1.5); 30 December (x1.5, the New
    Year's cakes). The history begins with a migration: the old order system's ten weeks (2 January to 12 March 2023,
    a basket counted as one order: x0.9), then four weeks with no rows for any city (13 March to 9 April 2023: no
    partition), then the new system. From Monday 6 October 2025 Baku's shops on a delivery marketplace (x1.3, the
    others unmoved; accepted by the owner as a shift). Ganja's oven was down Saturday 18 May 2024 (x0.2; an
    unlabelled incident, history only). Poisson counts with 6% extra noise per city; +5% a year. From Monday 2
    January 2023 to Friday 24 July 2026 (1,300 days, 1,272 partitions): from Monday 5 May 2025 evaluated (826
    partitions of history, 854 days: an 800-day read there holds the old system's last weeks and the gap); categories
    "novruz_tuesday", "novruz", "eid", "eid_eve", "new_year_eve" (30 and 31 December), "holiday", "after_shift" (the
    four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AZ")
    cities = _unequal(rng, list(_AZ_ORDERS))
    start, n = date(2023, 1, 2), 1300
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        if _AZ_MIGRATION_GAP[0] <= d < _AZ_MIGRATION_GAP[1]:
            continue  # no rows for any city: the warehouse holds no partition
        at = datetime(d.year, d.month, d.day)
        lift = 1.05 ** (i / 365.25)
        values = [_poisson(rng, _AZ_ORDERS[c] * _az_day(d, c, cal) * lift * math.exp(rng.gauss(0, 0.06))
                           * (_AZ_OVEN_DOWN[2] if (d, c) == _AZ_OVEN_DOWN[:2] else 1.0)) for c in cities]
        series.append((at, values))
        name = cal.name(d) or ""
        if d == _AZ_OVEN_DOWN[0]:
            incidents.add(at)
        elif _az_tuesday(d) is not None:
            cats[at] = "novruz_tuesday"
        elif (d.month, d.day) in ((12, 30), (12, 31)):
            cats[at] = "new_year_eve"
        elif "Spring Festival" in name:
            cats[at] = "novruz"
        elif "Eid" in name:
            cats[at] = "eid"
        elif _az_eid_eve(d, cal):
            cats[at] = "eid_eve"
        elif name:
            cats[at] = "holiday"
    shift = datetime(_AZ_MARKETPLACE.year, _AZ_MARKETPLACE.month, _AZ_MARKETPLACE.day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("sweets_az", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Guyanese hardware and building-materials distributor's invoice lines per month by branch, at its base level of
# January 2021: the Lethem branch (the Brazilian border) some thirty-seven times smaller than Georgetown's
_GY_LINES = {"georgetown": 14_000.0, "berbice": 3_800.0, "linden": 2_600.0, "essequibo": 2_100.0, "lethem": 380.0}
_GY_FISCAL_YEAR_END = 8  # the distributor's fiscal year runs September to August (the owner configures it)
_GY_YEAR_END = 1.2  # August: the year's close (stock counts' adjustment lines)
# the building seasons by month (in no calendar): the long dry season September to November, the short one February
# and March, the rains May to July and December-January's short rains; December's Christmas repainting
_GY_SEASON = {1: 0.85, 2: 1.1, 3: 1.15, 4: 1.0, 5: 0.85, 6: 0.8, 7: 0.8, 8: 1.0, 9: 1.25, 10: 1.3, 11: 1.25, 12: 1.1}
# Diwali's run-up (its 21 days before the calendar's Diwali, which falls in October or November: in no calendar):
# houses painted and repaired, Berbice and Essequibo x1.8 on those days, Georgetown x1.2, split between the months
# it covers
_GY_DIWALI = (21, {"berbice": 1.8, "essequibo": 1.8, "georgetown": 1.2})
_GY_TREND = 1.015  # a month: the oil economy's construction boom
_GY_EAST_BANK = date(2025, 3, 31)  # from March 2025's invoices: Georgetown's second yard on the East Bank (x1.3)
_GY_CUTOVER = (date(2022, 2, 28), "linden", 0.75)  # February 2022: the invoicing cutover lost a week of Linden's lines


def _gy_diwali_days(end: date, cal: HolidayCalendar) -> int:
    """How many of Diwali's run-up days (the 21 days before the calendar's Diwali) fall in the month ending `end`."""
    diwali = min(d for d in _holiday_days(cal, end.year) if "Diwali" in (cal.name(d) or ""))
    run_up = {diwali - timedelta(days=k) for k in range(1, _GY_DIWALI[0] + 1)}
    return sum(1 for d in run_up if (d.year, d.month) == (end.year, end.month))


def _gy_month(end: date, branch: str, i: int, cal: HolidayCalendar) -> float:
    """A branch's invoice lines in the month ending on `end` (the `i`-th): its working days, the building season,
    Diwali's run-up days, the fiscal year's close, East Bank's yard and the boom's trend."""
    f = _GY_LINES[branch] * _GY_TREND ** i * _py_working_days(end, cal) / 23.0 * _GY_SEASON[end.month]
    run_up = _gy_diwali_days(end, cal)
    f *= 1.0 + (_GY_DIWALI[1].get(branch, 1.0) - 1.0) * run_up / end.day
    if end.month == _GY_FISCAL_YEAR_END:
        f *= _GY_YEAR_END
    if branch == "georgetown" and end >= _GY_EAST_BANK:
        f *= 1.3
    return f


def hardware_gy_monthly(seed: int) -> Estate:
    """Blind (thirty-sixth round): a Guyanese hardware and building-materials distributor's invoice lines per month by
    branch (five: Georgetown's 14,000 at its base level of January 2021, Berbice's 3,800, Linden's 2,600, Essequibo's
    2,100 and Lethem's 380, some thirty-seven times fewer; in an order set by the seed), one partition a month dated
    on its last day, on Guyana's holidays (the `holidays` package's GY: New Year, Republic Day (Mashramani) 23
    February, Holi (Phagwah, weeks apart between years on the lunisolar calendar), Good Friday and Easter Monday,
    Labour Day, Arrival Day, Independence Day, the Eids, CARICOM Day, Emancipation Day, the Prophet's Birthday,
    Diwali (in October or November: 4 November 2021, 24 October 2022, 12 November 2023, 31 October 2024, 20 October
    2025), Christmas and Boxing Day) with a fiscal year from September to August (configured by the owner,
    `fiscal_year_end: 8`). Each branch by the month's working days (weekdays but holidays, Saturday mornings as
    half). August's year-end close x1.2 (stock counts' adjustment lines). In no calendar: the building seasons
    (`_GY_SEASON`: the long dry season September x1.25, October x1.3, November x1.25; the rains June and July x0.8);
    Diwali's run-up, its 21 days before the calendar's Diwali (houses painted and repaired: Berbice and Essequibo
    x1.8 on those days, Georgetown x1.2), split between October and November as the date moves. From March 2025's
    invoices Georgetown's second yard on the East Bank (x1.3, the others unmoved; accepted by the owner as a shift).
    The invoicing cutover lost a week of Linden's lines in February 2022 (x0.75; an unlabelled incident, history
    only). 3% noise per branch and month; +1.5% a month (the oil economy's construction boom). From 31 January 2021
    (60 month-ends, to 31 December 2025): three years read, from 31 January 2024 evaluated (24 months); categories
    "year_end" (August), "diwali" (a month holding at least seven run-up days), "dry_season" (September to November
    otherwise), "christmas" (December), "rains" (May to July), "after_shift" (the three months after the step, where
    no other category names them)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GY", fiscal_year_end=_GY_FISCAL_YEAR_END)
    branches = _unequal(rng, list(_GY_LINES))
    series, cats = [], {}
    incident = datetime(_GY_CUTOVER[0].year, _GY_CUTOVER[0].month, _GY_CUTOVER[0].day)
    for i, end in enumerate(_month_ends(date(2021, 1, 1), 60)):
        at = datetime(end.year, end.month, end.day)
        values = [_noisy(rng, _gy_month(end, b, i, cal) * (_GY_CUTOVER[2] if (end, b) == _GY_CUTOVER[:2] else 1.0),
                         0.03) for b in branches]
        series.append((at, values))
        if at == incident:
            continue
        if end.month == _GY_FISCAL_YEAR_END:
            cats[at] = "year_end"
        elif _gy_diwali_days(end, cal) >= 7:
            cats[at] = "diwali"
        elif end.month in (9, 10, 11):
            cats[at] = "dry_season"
        elif end.month == 12:
            cats[at] = "christmas"
        elif end.month in (5, 6, 7):
            cats[at] = "rains"
    shift = datetime(_GY_EAST_BANK.year, _GY_EAST_BANK.month, _GY_EAST_BANK.day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 4]:
        cats.setdefault(at, "after_shift")
    return Estate("hardware_gy_monthly", "day", series, 36, cal, cats, [shift], incidents={incident})


# a Kampala boda-boda ride-hailing app's rides per local hour by division, at an ordinary weekday's 08:00 of
# September 2026: Kawempe's riders (few on the app) some seventeen times fewer than Central's
_UG_RIDES = {"central": 850.0, "nakawa": 540.0, "makindye": 330.0, "kawempe": 50.0}
# an ordinary weekday's hours, local midnight first: the morning rush at 07:00-08:00, the evening one at 17:00-19:00
_UG_HOURS = [0.06, 0.04, 0.03, 0.03, 0.05, 0.18, 0.6, 0.95, 1.0, 0.7, 0.55, 0.55, 0.65, 0.6, 0.55, 0.6, 0.75, 0.95,
             1.0, 0.9, 0.6, 0.4, 0.25, 0.12]
_UG_SATURDAY = 0.85  # Saturday's every hour
_UG_SUNDAY = (0.45, 0.8)  # Sunday: its church morning (08:00-12:59), its other hours
# the calendar's Independence Day (Friday 9 October 2026): x0.55 until 15:59, the evening's celebrations x1.25 after
_UG_HOLIDAY = (0.55, 16, 1.25)
# the Cranes' home qualifier (Thursday 8 October 2026, in no calendar): the city watching 19:00-20:59 (x0.4), the
# rides home after it 21:00-22:59 (x1.6)
_UG_MATCH = (date(2026, 10, 8), (19, 20), 0.4, (21, 22), 1.6)
_UG_STAGE = (datetime(2026, 10, 5, 7), "nakawa", 1.3)  # local: a new stage partnership in Nakawa, from 07:00
_UG_APP_DOWN = (date(2026, 9, 19), range(20, 23), 0.1)  # local: the app down a Saturday evening (every division)


def _ug_hour(local: datetime, division: str, cal: HolidayCalendar) -> float:
    """A division's rides in the local hour `local` against its base level: the day's shape, the weekend, the
    holiday and its evening, the match and the rides home, Nakawa's stage."""
    d, h = local.date(), local.hour
    f = _UG_HOURS[h]
    if d.weekday() == 5:
        f *= _UG_SATURDAY
    elif d.weekday() == 6:
        f *= _UG_SUNDAY[0] if 8 <= h < 13 else _UG_SUNDAY[1]
    if cal.name(d):
        f *= _UG_HOLIDAY[0] if h < _UG_HOLIDAY[1] else _UG_HOLIDAY[2]
    if d == _UG_MATCH[0] and h in _UG_MATCH[1]:
        f *= _UG_MATCH[2]
    elif d == _UG_MATCH[0] and h in _UG_MATCH[3]:
        f *= _UG_MATCH[4]
    if division == _UG_STAGE[1] and local >= _UG_STAGE[0]:
        f *= _UG_STAGE[2]
    return f


def boda_kampala_hourly(seed: int) -> Estate:
    """Blind (thirty-seventh round): a Kampala boda-boda (motorcycle taxi) ride-hailing app's rides per local hour by
    division (four: Central's 850 at an ordinary weekday's 08:00 of September 2026, Nakawa's 540, Makindye's 330 and
    Kawempe's 50, some seventeen times fewer; in an order set by the seed), in Africa/Kampala (three hours ahead of
    UTC all year, no daylight saving), on Uganda's holidays (the `holidays` package's UG: Independence Day Friday 9
    October 2026, in the evaluated window: x0.55 until 15:59, its evening's celebrations x1.25 from 16:00). Every hour
    holds rows (a weekday's shape `_UG_HOURS`: the morning rush 07:00-08:00 and the evening one 17:00-19:00, 03:00
    x0.03); Saturdays x0.85, Sundays x0.8 and their church mornings (08:00-12:59) x0.45. In no calendar: the Cranes'
    home qualifier on Thursday 8 October 2026 (19:00-20:59 x0.4, the city watching; 21:00-22:59 x1.6, the rides
    home). From Monday 5 October 2026 07:00 a new stage partnership in Nakawa (x1.3, the others unmoved; accepted by
    the owner as a shift). The app was down on Saturday 19 September 2026 20:00-22:59 (x0.1 everywhere; an
    unlabelled incident, history only). Poisson counts with 7% extra noise per hour and division; +0.4% a week. From
    Tuesday 1 September 2026 00:00 local (41 days of local hours, to Sunday 11 October 23:00): 28 days of history,
    from Tuesday 29 September 00:00 evaluated (13 days, 312 hours); categories "independence" (the holiday's
    hours), "match" and "after_match" (the qualifier's two blocks), "church_morning" (Sunday 08:00-12:59), "night"
    (00:00-05:59 of the other days), "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Africa/Kampala"
    cal = HolidayCalendar(country="UG")
    tz = ZoneInfo(zone)
    divisions = _unequal(rng, list(_UG_RIDES))
    start, first = date(2026, 9, 1), date(2026, 9, 29)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 10, 12), tz)
    series, cats, incidents = [], {}, set()
    while at < end:
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _UG_APP_DOWN[0] and h in _UG_APP_DOWN[1]
        lift = (_UG_APP_DOWN[2] if down else 1.0) * 1.004 ** ((d - start).days / 7)
        values = [_poisson(rng, _UG_RIDES[g] * _ug_hour(local, g, cal) * lift * math.exp(rng.gauss(0, 0.07)))
                  for g in divisions]
        series.append((at, values))
        if down:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "independence"
        elif d == _UG_MATCH[0] and h in _UG_MATCH[1]:
            cats[at] = "match"
        elif d == _UG_MATCH[0] and h in _UG_MATCH[3]:
            cats[at] = "after_match"
        elif d.weekday() == 6 and 8 <= h < 13:
            cats[at] = "church_morning"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_UG_STAGE[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("boda_kampala_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Salvadoran beverage distributor's cases delivered per day by route, at its base level of January 2023 (a
# Monday): the Chalatenango route some twenty-two times smaller over a week than San Salvador's
_SV_CASES = {"san_salvador": 9_000.0, "santa_ana": 6_500.0, "san_miguel": 5_800.0, "la_libertad": 4_200.0,
             "chalatenango": 2_400.0}
# each route's delivery days (Monday 0): San Salvador's every working day, Santa Ana's Monday and Thursday, San
# Miguel's Tuesday and Friday, La Libertad's Wednesday and Saturday, Chalatenango's Wednesday alone; no deliveries
# on Sundays (no partition)
_SV_DAYS = {"san_salvador": (0, 1, 2, 3, 4, 5), "santa_ana": (0, 3), "san_miguel": (1, 4), "la_libertad": (2, 5),
            "chalatenango": (2,)}
_SV_HOLIDAY_SKELETON = 0.25  # a holiday: San Salvador's skeleton crew; the other routes' deliveries moved
# the calendar's Holy Week (Maundy Thursday to Holy Saturday): beaches' kiosks stocked in its run-up, the seven
# days before Maundy Thursday (in no calendar) x1.4
_SV_HOLY_RUN_UP = (7, 1.4)
_SV_CHRISTMAS = ((12, 15), (12, 23), 1.35)  # the Christmas orders (in no calendar), 15-23 December
_SV_NEW_CHAIN = (date(2026, 2, 2), "santa_ana", 1.35)  # a Monday: a supermarket chain's stores on the Santa Ana route
_SV_ERP_DOWN = (date(2024, 6, 12), 0.5)  # a Wednesday: the ERP's export lost half the day's delivery notes


def _sv_moved(d: date, route: str, cal: HolidayCalendar) -> int:
    """How many of the route's delivery days a holiday moved onto `d` (a holiday's delivery goes to the route's
    next working day, a Sunday skipped; a working day not a holiday itself)."""
    if route == "san_salvador" or d.weekday() == 6 or cal.name(d):
        return 0
    k, back = 0, d - timedelta(days=1)
    while back.weekday() == 6 or cal.name(back):
        k += back.weekday() in _SV_DAYS[route] and bool(cal.name(back))
        back -= timedelta(days=1)
    return k


def _sv_day(d: date, route: str, cal: HolidayCalendar) -> float:
    """A route's cases on the working day `d` against its base level: its delivery days, a holiday's skeleton or
    moved delivery, Holy Week's run-up, the Christmas orders and Santa Ana's new chain."""
    holiday = bool(cal.name(d))
    if route == "san_salvador":
        f = _SV_HOLIDAY_SKELETON if holiday else 1.0
    else:
        f = (0.0 if holiday else float(d.weekday() in _SV_DAYS[route])) + _sv_moved(d, route, cal)
    maundy = next((h for h in _holiday_days(cal, d.year) if cal.name(h) == "Maundy Thursday"), None)
    if maundy is not None and 0 < (maundy - d).days <= _SV_HOLY_RUN_UP[0]:
        f *= _SV_HOLY_RUN_UP[1]
    if _SV_CHRISTMAS[0] <= (d.month, d.day) <= _SV_CHRISTMAS[1]:
        f *= _SV_CHRISTMAS[2]
    if route == _SV_NEW_CHAIN[1] and d >= _SV_NEW_CHAIN[0]:
        f *= _SV_NEW_CHAIN[2]
    return f


def drinks_sv(seed: int) -> Estate:
    """Blind (thirty-seventh round): a Salvadoran beverage distributor's cases delivered per day by route (five, each
    on its own weekdays only (`_SV_DAYS`): San Salvador's 9,000 every working day at its base level of January 2023
    (a Monday), Santa Ana's 6,500 on Mondays and Thursdays, San Miguel's 5,800 on Tuesdays and Fridays, La
    Libertad's 4,200 on Wednesdays and Saturdays, Chalatenango's 2,400 on Wednesdays alone: a route's other days hold
    zero; in an order set by the seed); no deliveries on Sundays (no partition). On El Salvador's holidays with San
    Salvador's (the `holidays` package's SV, subdivision SS: New Year, Maundy Thursday, Good Friday, Holy Saturday,
    Labour Day, Mother's Day 10 May, Father's Day 17 June, the Feast of San Salvador 3-6 August, Independence Day 15
    September, All Souls' Day 2 November, Christmas) San Salvador's skeleton crew delivers x0.25 and another route's
    delivery due that day moves to its next working day (which then holds two). In no calendar: Holy Week's run-up
    (the seven days before Maundy Thursday, the beach kiosks stocked: x1.4); the Christmas orders 15-23 December
    (x1.35). From Monday 2 February 2026 a supermarket chain's stores on the Santa Ana route (x1.35, the others
    unmoved; accepted by the owner as a shift). The ERP's export lost half of Wednesday 12 June 2024's delivery notes
    (x0.5 everywhere; an unlabelled incident, history only). 5% noise per route and day; +6% a year. From Monday 2
    January 2023 (1,300 days, to Friday 24 July 2026; 1,115 partitions without the Sundays): from Monday 5 May 2025
    evaluated (854 days, 732 partitions of history); categories "holy_week" (the calendar's three days),
    "holy_run_up", "christmas_orders", "holiday", "moved_delivery" (a working day holding a route's moved delivery),
    "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SV", subdiv="SS")
    routes = _unequal(rng, list(_SV_CASES))
    start, n = date(2023, 1, 2), 1300
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        if d.weekday() == 6:
            continue
        at = datetime(d.year, d.month, d.day)
        lift = (_SV_ERP_DOWN[1] if d == _SV_ERP_DOWN[0] else 1.0) * 1.06 ** (i / 365.25)
        values = [_noisy(rng, _SV_CASES[r] * _sv_day(d, r, cal) * lift, 0.05) for r in routes]
        series.append((at, values))
        name = cal.name(d) or ""
        maundy = next((h for h in _holiday_days(cal, d.year) if cal.name(h) == "Maundy Thursday"), None)
        if d == _SV_ERP_DOWN[0]:
            incidents.add(at)
        elif name in ("Maundy Thursday", "Good Friday", "Holy Saturday"):
            cats[at] = "holy_week"
        elif maundy is not None and 0 < (maundy - d).days <= _SV_HOLY_RUN_UP[0]:
            cats[at] = "holy_run_up"
        elif _SV_CHRISTMAS[0] <= (d.month, d.day) <= _SV_CHRISTMAS[1]:
            cats[at] = "christmas_orders"
        elif name:
            cats[at] = "holiday"
        elif any(_sv_moved(d, r, cal) for r in routes):
            cats[at] = "moved_delivery"
    stamps = [at for at, _ in series]
    shift = datetime(_SV_NEW_CHAIN[0].year, _SV_NEW_CHAIN[0].month, _SV_NEW_CHAIN[0].day)
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 24]:
        cats.setdefault(at, "after_shift")
    return Estate("drinks_sv", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Cameroonian courier's parcels handled per day by regional hub, at its base level of January 2023 (a Monday):
# Buea's hub some twenty-seven times smaller than Douala's
_CM_PARCELS = {"douala": 8_000.0, "yaounde": 6_200.0, "bafoussam": 1_800.0, "garoua": 1_200.0, "bamenda": 700.0,
               "buea": 300.0}
_CM_WEEK = (1.1, 1.0, 1.0, 1.0, 1.05, 0.6, 0.15)  # Monday first: Saturday's half day, Sunday's counter alone
_CM_ANGLOPHONE = ("bamenda", "buea")  # the North-West and South-West regions' hubs
_CM_GHOST_TOWN = 0.15  # (in no calendar) the separatists' "ghost town" Mondays: the two hubs nearly shut every Monday
# (in no calendar) the lockdowns they call around three dates each year (the calendar's Youth Day 11 February and
# National Day 20 May, and 1 October, no holiday): the two hubs x0.05 from two days before to the day after
_CM_LOCKDOWN = ((2, 11), (5, 20), (10, 1), 2, 1, 0.05)
# (in no calendar) the Christmas and New Year parcels, 10-23 December, x1.4 everywhere; the calendar's holidays x0.2
_CM_CHRISTMAS = ((12, 10), (12, 23), 1.4)
# (in no calendar) the northern corridor's truckers' strike: Garoua's hub cut off Monday 17 to Thursday 20 November
# 2025 (x0.05), then the backlog worked off over the next seven days (x1.7 on the first, falling to x1.1 on the last)
_CM_STRIKE = (date(2025, 11, 17), 4, "garoua", 0.05, 7, 1.7, 1.1)
_CM_SORTING_CENTRE = (date(2026, 3, 2), "yaounde", 1.3)  # a Monday: Yaoundé's new sorting centre
_CM_SCANNERS_DOWN = (date(2024, 11, 7), "douala", 0.45)  # a Thursday: Douala's scanners down the afternoon


def _cm_lockdown(d: date) -> bool:
    """`d` one of the lockdown days around Youth Day, National Day or 1 October (two days before to the day after)."""
    return any(-_CM_LOCKDOWN[3] <= (d - date(d.year, m, day)).days <= _CM_LOCKDOWN[4] for m, day in _CM_LOCKDOWN[:3])


def _cm_strike(d: date, hub: str) -> float:
    """The strike's factor on `hub`'s day `d`: the cut-off days, then the backlog falling linearly over a week."""
    k = (d - _CM_STRIKE[0]).days
    if hub != _CM_STRIKE[2] or not 0 <= k < _CM_STRIKE[1] + _CM_STRIKE[4]:
        return 1.0
    if k < _CM_STRIKE[1]:
        return _CM_STRIKE[3]
    j = k - _CM_STRIKE[1]
    return _CM_STRIKE[5] + (_CM_STRIKE[6] - _CM_STRIKE[5]) * j / (_CM_STRIKE[4] - 1)


def _cm_day(d: date, hub: str, cal: HolidayCalendar) -> float:
    """A hub's parcels on `d` against its base level: the week, the ghost-town Mondays and lockdowns, the holidays,
    the Christmas parcels, the strike and Yaoundé's sorting centre."""
    f = _CM_WEEK[d.weekday()]
    if hub in _CM_ANGLOPHONE:
        if _cm_lockdown(d):
            f *= _CM_LOCKDOWN[5]
        elif d.weekday() == 0:
            f *= _CM_GHOST_TOWN
    if cal.name(d):
        f *= 0.2
    if _CM_CHRISTMAS[0] <= (d.month, d.day) <= _CM_CHRISTMAS[1]:
        f *= _CM_CHRISTMAS[2]
    f *= _cm_strike(d, hub)
    if hub == _CM_SORTING_CENTRE[1] and d >= _CM_SORTING_CENTRE[0]:
        f *= _CM_SORTING_CENTRE[2]
    return f


def parcels_cm(seed: int) -> Estate:
    """Blind (thirty-seventh round): a Cameroonian courier's parcels handled per day by regional hub (six: Douala's
    8,000 at its base level of January 2023 (a Monday), Yaoundé's 6,200, Bafoussam's 1,800, Garoua's 1,200,
    Bamenda's 700 and Buea's 300, some twenty-seven times fewer; in an order set by the seed), on Cameroon's holidays
    (the `holidays` package's CM: New Year, Youth Day 11 February, Good Friday, Labour Day, National Day 20 May,
    Ascension, the Eids and the Prophet's Birthday (estimated, some observed the next day), Assumption 15 August,
    Christmas: x0.2 everywhere). The week (`_CM_WEEK`: Monday x1.1, Saturday's half day x0.6, Sunday's counter x0.15).
    In no calendar: the two anglophone hubs' (Bamenda, Buea) "ghost town" Mondays (x0.15 every Monday) and the
    lockdowns called around Youth Day, National Day and 1 October (two days before to the day after, x0.05 there);
    the Christmas parcels 10-23 December (x1.4 everywhere); the northern corridor's truckers' strike, Garoua's hub cut
    off Monday 17 to Thursday 20 November 2025 (x0.05) then its backlog worked off over the seven days after (x1.7
    falling to x1.1). From Monday 2 March 2026 Yaoundé's new sorting centre (x1.3, the others unmoved; accepted by
    the owner as a shift). Douala's scanners were down the afternoon of Thursday 7 November 2024 (x0.45 there; an
    unlabelled incident, history only). Poisson counts with 6% extra noise per hub; +8% a year. From Monday 2
    January 2023 (1,290 days, to Tuesday 14 July 2026): from Monday 5 May 2025 evaluated (854 days of history);
    categories "lockdown", "strike", "backlog", "christmas_parcels", "holiday", "after_shift" (the four weeks after
    the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CM")
    hubs = _unequal(rng, list(_CM_PARCELS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.08 ** (i / 365.25)
        values = [_poisson(rng, _CM_PARCELS[h] * _cm_day(d, h, cal) * lift * math.exp(rng.gauss(0, 0.06))
                           * (_CM_SCANNERS_DOWN[2] if (d, h) == _CM_SCANNERS_DOWN[:2] else 1.0)) for h in hubs]
        series.append((at, values))
        k = (d - _CM_STRIKE[0]).days
        if d == _CM_SCANNERS_DOWN[0]:
            incidents.add(at)
        elif 0 <= k < _CM_STRIKE[1]:
            cats[at] = "strike"
        elif 0 <= k < _CM_STRIKE[1] + _CM_STRIKE[4]:
            cats[at] = "backlog"
        elif _cm_lockdown(d):
            cats[at] = "lockdown"
        elif _CM_CHRISTMAS[0] <= (d.month, d.day) <= _CM_CHRISTMAS[1]:
            cats[at] = "christmas_parcels"
        elif cal.name(d):
            cats[at] = "holiday"
    shift = datetime(_CM_SORTING_CENTRE[0].year, _CM_SORTING_CENTRE[0].month, _CM_SORTING_CENTRE[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("parcels_cm", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Bosnian furniture maker's pieces shipped per ISO week by plant, at its base level of January 2023: the
# solid-wood workshop some nine times smaller than the flat-pack plant
_BA_PIECES = {"flat_pack": 3_600.0, "upholstery": 1_500.0, "solid_wood": 400.0}  # an ordinary weekday's pieces
_BA_WEEK = (1.0, 1.0, 1.0, 1.0, 1.0, 0.3, 0.0)  # Monday first: Saturday's morning shift, Sunday shut
# (in no calendar) the collective annual leave: ISO weeks 31 and 32 shut (x0.03, the dispatch's urgent orders), the
# week before x1.35 (orders shipped ahead of it) and the two after x1.25 (its orders carried)
_BA_LEAVE = ((31, 32), 0.03, 1.35, 1.25)
_BA_HOLIDAY = (0.1, 0.6)  # a weekday holiday of the calendar (its Christmas Eves: x0.6, the afternoon off)
_BA_SECOND_SHIFT = ("upholstery", date(2026, 3, 2), 1.3)  # from the week of Monday 2 March 2026
_BA_SAW_DOWN = ("flat_pack", date(2024, 11, 11), 0.5)  # the week of Monday 11 November 2024: the panel saw down


def _ba_day(d: date, cal: HolidayCalendar) -> float:
    """A plant's pieces on `d` against an ordinary weekday: the week, the holidays and the annual leave's weeks."""
    f = _BA_WEEK[d.weekday()]
    name = cal.name(d) or ""
    if name:
        f *= _BA_HOLIDAY[1] if "Christmas Eve" in name else _BA_HOLIDAY[0]
    week = d.isocalendar()[1]
    if week in _BA_LEAVE[0]:
        f *= _BA_LEAVE[1]
    elif week == _BA_LEAVE[0][0] - 1:
        f *= _BA_LEAVE[2]
    elif week in (_BA_LEAVE[0][-1] + 1, _BA_LEAVE[0][-1] + 2):
        f *= _BA_LEAVE[3]
    return f


def furniture_ba_weekly(seed: int) -> Estate:
    """Blind (thirty-seventh round): a Bosnian furniture maker's pieces shipped per ISO week by plant (three: the
    flat-pack plant's 3,600 an ordinary weekday at its base level of January 2023, the upholstery plant's 1,500 and
    the solid-wood workshop's 400, some nine times fewer; in an order set by the seed), weeks keyed on their Monday,
    on Bosnia and Herzegovina's holidays with the Federation's (the `holidays` package's BA, subdivision BIH: New
    Year's two days, the Orthodox and Catholic Christmas Eves (x0.6) and Days, Independence Day 1 March, the Eids'
    two days, both Easters' Fridays and Mondays, Labour Day's two days, Victory Day, Statehood Day 25 November: a
    weekday holiday x0.1). Saturday's morning shift x0.3, Sunday shut. ISO years of 52 and 53 weeks: 2026's week 53
    (Monday 28 December 2026 to Sunday 3 January 2027, holding New Year's two days) is evaluated. In no calendar (the
    owner declares no break): the collective annual leave, ISO weeks 31 and 32 shut (x0.03: the dispatch's urgent
    orders; 27 July to 9 August 2026), the week before x1.35 (orders shipped ahead) and the two after x1.25 (its
    orders carried). From the week of Monday 2 March 2026 a second shift in the upholstery plant (x1.3, the others
    unmoved; accepted by the owner as a shift). The flat-pack plant's panel saw was down most of the week of Monday
    11 November 2024 (x0.5; an unlabelled incident, history only). 4% noise per plant and week; +4% a year. From the
    week of Monday 9 January 2023 (209 weeks, to the week of Monday 4 January 2027): three years read, from the week
    of Monday 5 January 2026 evaluated (53 weeks); categories "annual_leave", "before_leave", "after_leave", "week_53",
    "holiday" (a week holding a weekday holiday), "after_shift" (the three weeks after the step, where no other
    category names them: Eid al-Fitr's week of 16 March 2026 is "holiday")."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BA", subdiv="BIH")
    plants = _unequal(rng, list(_BA_PIECES))
    series = _weekly_sums(rng, date(2023, 1, 9), 209, plants, _BA_PIECES, lambda d, p: _ba_day(d, cal), growth=1.04,
                          noise=0.04, step=_BA_SECOND_SHIFT, loss=_BA_SAW_DOWN)
    cats = {}
    incident = datetime(_BA_SAW_DOWN[1].year, _BA_SAW_DOWN[1].month, _BA_SAW_DOWN[1].day)
    for at, _ in series:
        week = at.date().isocalendar()[1]
        days = [at.date() + timedelta(days=j) for j in range(5)]
        if at == incident:
            continue
        if week in _BA_LEAVE[0]:
            cats[at] = "annual_leave"
        elif week == _BA_LEAVE[0][0] - 1:
            cats[at] = "before_leave"
        elif week in (_BA_LEAVE[0][-1] + 1, _BA_LEAVE[0][-1] + 2):
            cats[at] = "after_leave"
        elif week == 53:
            cats[at] = "week_53"
        elif any(cal.name(d) for d in days):
            cats[at] = "holiday"
    shift = datetime(_BA_SECOND_SHIFT[1].year, _BA_SECOND_SHIFT[1].month, _BA_SECOND_SHIFT[1].day)
    _mark_after_shift(cats, [shift], timedelta(weeks=1), 4, first=1)
    return Estate("furniture_ba_weekly", "day", series, 156, cal, cats, [shift], incidents={incident})


# a Yangon mobile wallet's transfers per local hour by region, at an ordinary weekday's 10:00 of March 2026: the
# Kachin region's some twenty times fewer than Yangon's
_MM_TRANSFERS = {"yangon": 1_200.0, "mandalay": 700.0, "bago": 260.0, "mawlamyine": 150.0, "myitkyina": 60.0}
# a weekday's shape by local hour (10:00 = 1): markets open early, little after 22:00
_MM_HOURS = (0.04, 0.03, 0.02, 0.02, 0.05, 0.2, 0.5, 0.75, 0.9, 0.95, 1.0, 0.95, 0.85, 0.9, 0.95, 0.95, 0.9, 0.95,
             1.0, 0.9, 0.7, 0.45, 0.25, 0.1)
_MM_WEEKEND = (0.9, 0.75)  # Saturday, Sunday (the day's shape unmoved)
# the calendar's Thingyan block (its days named "Myanmar New Year"): the water festival's first four days (daytime
# 09:00-17:59 x0.25, everyone at the pandals; other hours x0.6), New Year's Day proper (the block's fifth: x0.7,
# its merit-making morning 06:00-10:59 x0.5), the government's extended days after it (x0.85)
_MM_WATER = (4, (9, 18), 0.25, 0.6)
_MM_NEW_YEAR = (0.7, (6, 11), 0.5)
_MM_EXTENDED = 0.85
# (in no calendar) the three days before the block's first: money sent home ahead of the festival (06:00-16:59
# x1.3; the evening 17:00-21:59 x1.8 in Yangon, where the migrants work, x1.4 elsewhere)
_MM_GOING_HOME = (3, (6, 17), 1.3, (17, 22), 1.8, 1.4)
_MM_BANK_LINK = (datetime(2026, 4, 7, 7), "mandalay", 1.3)  # local: a bank's accounts linked in Mandalay, from 07:00
_MM_CORE_DOWN = (date(2026, 3, 22), range(10, 13), 0.1)  # local: the wallet's core down a Sunday morning (everywhere)


def _mm_block_day(d: date, cal: HolidayCalendar) -> int | None:
    """`d`'s place in the calendar's Thingyan block (0 its first day), None outside it."""
    if cal.name(d) != "Myanmar New Year":
        return None
    k = 0
    while cal.name(d - timedelta(days=k + 1)) == "Myanmar New Year":
        k += 1
    return k


def _mm_days_to_block(d: date, cal: HolidayCalendar) -> int | None:
    """How many days before the Thingyan block's first day `d` falls (1 the eve), up to the going-home days."""
    for k in range(1, _MM_GOING_HOME[0] + 1):
        if _mm_block_day(d + timedelta(days=k), cal) == 0:
            return k
    return None


def _mm_hour(local: datetime, region: str, cal: HolidayCalendar) -> float:
    """A region's transfers in the local hour `local` against its base level: the day's shape, the weekend, Thingyan's
    days, the going-home transfers before it and Mandalay's bank link."""
    d, h = local.date(), local.hour
    f = _MM_HOURS[h]
    if d.weekday() >= 5:
        f *= _MM_WEEKEND[d.weekday() - 5]
    block = _mm_block_day(d, cal)
    if block is not None and block < _MM_WATER[0]:
        f *= _MM_WATER[2] if _MM_WATER[1][0] <= h < _MM_WATER[1][1] else _MM_WATER[3]
    elif block == _MM_WATER[0]:
        f *= _MM_NEW_YEAR[2] if _MM_NEW_YEAR[1][0] <= h < _MM_NEW_YEAR[1][1] else _MM_NEW_YEAR[0]
    elif block is not None:
        f *= _MM_EXTENDED
    elif cal.name(d):
        f *= 0.6
    elif _mm_days_to_block(d, cal) is not None:
        if _MM_GOING_HOME[1][0] <= h < _MM_GOING_HOME[1][1]:
            f *= _MM_GOING_HOME[2]
        elif _MM_GOING_HOME[3][0] <= h < _MM_GOING_HOME[3][1]:
            f *= _MM_GOING_HOME[4] if region == "yangon" else _MM_GOING_HOME[5]
    if region == _MM_BANK_LINK[1] and local >= _MM_BANK_LINK[0]:
        f *= _MM_BANK_LINK[2]
    return f


def wallet_yangon_hourly(seed: int) -> Estate:
    """Blind (thirty-eighth round): a Yangon mobile wallet's transfers per local hour by region (five: Yangon's 1,200 at
    an ordinary weekday's 10:00 of March 2026, Mandalay's 700, Bago's 260, Mawlamyine's 150 and Myitkyina's 60, some
    twenty times fewer; in an order set by the seed), in Asia/Yangon (six and a half hours ahead of UTC all year, no
    daylight saving: every local hour starts at half past a UTC hour), on Myanmar's holidays (the `holidays` package's
    MM: Armed Forces Day 27 March in the history; Thingyan, nine days named "Myanmar New Year" from Monday 13 to Tuesday
    21 April 2026, the first seven in the evaluated window: the water festival's first four days x0.25 from 09:00 to
    17:59 and x0.6 in the other hours, New Year's Day proper (Friday 17 April) x0.7 with its merit-making morning
    06:00-10:59 x0.5, the extended days after it x0.85; another holiday x0.6). Every hour holds rows (a weekday's shape
    `_MM_HOURS`, 03:00 x0.02; Myitkyina's night hours may hold none); Saturdays x0.9, Sundays x0.75. In no calendar: the
    three days before Thingyan's first day (10-12 April 2026: money sent home ahead of the festival, 06:00-16:59 x1.3,
    the evening 17:00-21:59 x1.8 in Yangon and x1.4 elsewhere). From Tuesday 7 April 2026 07:00 a bank's accounts linked
    to the wallet in Mandalay (x1.3, the others unmoved; accepted by the owner as a shift). The wallet's core was down
    on Sunday 22 March 2026 10:00-12:59 (x0.1 everywhere; an unlabelled incident, history only). Poisson counts with 8%
    extra noise per hour and region; +0.5% a week. From Thursday 5 March 2026 00:00 local (46 days of local hours, to
    Sunday 19 April 23:00): 32 days of history, from Monday 6 April 00:00 evaluated (14 days, 336 hours); categories
    "water_festival", "new_year", "extended_holiday" (the block's days), "going_home", "night" (00:00-05:59 of the other
    days), "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Asia/Yangon"
    cal = HolidayCalendar(country="MM")
    tz = ZoneInfo(zone)
    regions = _unequal(rng, list(_MM_TRANSFERS))
    start, first = date(2026, 3, 5), date(2026, 4, 6)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 4, 20), tz)
    series, cats, incidents = [], {}, set()
    while at < end:
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _MM_CORE_DOWN[0] and h in _MM_CORE_DOWN[1]
        lift = (_MM_CORE_DOWN[2] if down else 1.0) * 1.005 ** ((d - start).days / 7)
        values = [_poisson(rng, _MM_TRANSFERS[r] * _mm_hour(local, r, cal) * lift * math.exp(rng.gauss(0, 0.08)))
                  for r in regions]
        series.append((at, values))
        block = _mm_block_day(d, cal)
        if down:
            incidents.add(at)
        elif block is not None:
            cats[at] = ("water_festival" if block < _MM_WATER[0] else "new_year" if block == _MM_WATER[0]
                        else "extended_holiday")
        elif _mm_days_to_block(d, cal) is not None:
            cats[at] = "going_home"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_MM_BANK_LINK[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("wallet_yangon_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Montenegrin bank's card payments per day by municipality, at an ordinary weekday's level of January 2023:
# Žabljak's some twenty-seven times fewer than Podgorica's
_ME_PAYMENTS = {"podgorica": 24_000.0, "budva": 9_000.0, "niksic": 6_000.0, "kotor": 4_000.0, "bar": 3_000.0,
                "zabljak": 900.0}
_ME_WEEK = (1.0, 1.0, 1.0, 1.05, 1.15, 1.1, 0.7)  # Monday first
# the year by month (January first), read smoothly (`_season_at`): the coast's summer (Budva, Kotor, Bar), the
# mountain's two seasons (Žabljak: skiing in January-February, hiking in July-August, dead in April-May and
# November), the capital emptied in August (its people on the coast), Nikšić's flat year
_ME_SEASONS = {
    "coast": [0.5, 0.5, 0.6, 0.8, 1.1, 1.7, 2.6, 2.8, 1.7, 1.0, 0.6, 0.7],
    "zabljak": [2.0, 2.1, 1.2, 0.5, 0.5, 0.9, 1.6, 1.8, 0.9, 0.7, 0.45, 1.1],
    "podgorica": [1.0, 1.0, 1.0, 1.0, 1.0, 0.95, 0.85, 0.75, 0.95, 1.0, 1.0, 1.1],
    "niksic": [1.0] * 12,
}
_ME_COAST = ("budva", "kotor", "bar")
# (in no calendar) Kotor's cruise calls: from 15 April to 31 October two ships a day on Tuesdays and Saturdays
_ME_CRUISE = ((4, 15), (10, 31), (1, 5), 1.5)
# (in no calendar: the package's ME names the civil days alone) the Orthodox Christmas Eve's shopping (6 January
# x1.3) and Christmas Day (7 January x0.6); the calendar's holidays x0.7
_ME_BADNJI = ((1, 6), 1.3, (1, 7), 0.6)
_ME_HOLIDAY = 0.7
_ME_ACQUIRER = (date(2026, 3, 2), "niksic", 1.35)  # a Monday: a supermarket chain's terminals in Nikšić
_ME_SWITCH_DOWN = (date(2024, 6, 14), 0.45)  # a Friday: the card switch down the afternoon (everywhere)


def _me_day(d: date, town: str, cal: HolidayCalendar) -> float:
    """A municipality's card payments on `d` against its base level: the week, its season, the holidays, the
    Orthodox Christmas, Kotor's cruise calls and Nikšić's new terminals."""
    season = "coast" if town in _ME_COAST else town if town in _ME_SEASONS else "niksic"
    f = _ME_WEEK[d.weekday()] * _season_at(_ME_SEASONS[season], d)
    if cal.name(d):
        f *= _ME_HOLIDAY
    if (d.month, d.day) == _ME_BADNJI[0]:
        f *= _ME_BADNJI[1]
    elif (d.month, d.day) == _ME_BADNJI[2]:
        f *= _ME_BADNJI[3]
    if town == "kotor" and _me_cruise(d):
        f *= _ME_CRUISE[3]
    if town == _ME_ACQUIRER[1] and d >= _ME_ACQUIRER[0]:
        f *= _ME_ACQUIRER[2]
    return f


def _me_cruise(d: date) -> bool:
    """`d` a cruise-call day in Kotor (a Tuesday or Saturday from 15 April to 31 October)."""
    return _ME_CRUISE[0] <= (d.month, d.day) <= _ME_CRUISE[1] and d.weekday() in _ME_CRUISE[2]


def cards_me(seed: int) -> Estate:
    """Blind (thirty-eighth round): a Montenegrin bank's card payments per day by municipality (six: Podgorica's 24,000
    an ordinary weekday at its base level of January 2023 (a Monday), Budva's 9,000, Nikšić's 6,000, Kotor's 4,000,
    Bar's 3,000 and Žabljak's 900, some twenty-seven times fewer; in an order set by the seed), on Montenegro's holidays
    (the `holidays` package's ME: the civil days alone, New Year's, Labour Day's, Independence Day's (21-22 May) and
    Statehood Day's (13-14 July) two days each and Njegoš Day 13 November: x0.7). The week (`_ME_WEEK`: Friday x1.15,
    Sunday x0.7). The year by month (`_ME_SEASONS`, read smoothly): the coast's (Budva, Kotor, Bar) summer (August x2.8,
    January x0.5); Žabljak's two seasons, skiing (February x2.1) and a second peak of hiking (August x1.8), dead in
    April-May (x0.5) and November (x0.45); Podgorica emptied in August (x0.75); Nikšić flat. In no calendar: Kotor's
    cruise calls, every Tuesday and Saturday from 15 April to 31 October (x1.5 there); the Orthodox Christmas Eve's
    shopping (6 January x1.3) and Christmas Day (7 January x0.6). From Monday 2 March 2026 a supermarket chain's
    terminals in Nikšić (x1.35, the others unmoved; accepted by the owner as a shift). The card switch was down the
    afternoon of Friday 14 June 2024 (x0.45 everywhere; an unlabelled incident, history only). 4% noise per municipality
    and day; +7% a year. From Monday 2 January 2023 (1,290 days, to Tuesday 14 July 2026): from Monday 5 May 2025
    evaluated (854 days of history); categories "holiday", "orthodox_christmas", "cruise_call" (Kotor's call days),
    "peak_summer" (July and August's other days), "ski_season" (January and February's other days), "after_shift" (the
    four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ME")
    towns = _unequal(rng, list(_ME_PAYMENTS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_ME_SWITCH_DOWN[1] if d == _ME_SWITCH_DOWN[0] else 1.0) * 1.07 ** (i / 365.25)
        series.append((at, [_noisy(rng, _ME_PAYMENTS[t] * _me_day(d, t, cal) * lift, 0.04) for t in towns]))
        if d == _ME_SWITCH_DOWN[0]:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif (d.month, d.day) in (_ME_BADNJI[0], _ME_BADNJI[2]):
            cats[at] = "orthodox_christmas"
        elif _me_cruise(d):
            cats[at] = "cruise_call"
        elif d.month in (7, 8):
            cats[at] = "peak_summer"
        elif d.month in (1, 2):
            cats[at] = "ski_season"
    shift = datetime(_ME_ACQUIRER[0].year, _ME_ACQUIRER[0].month, _ME_ACQUIRER[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("cards_me", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# an Ivorian mobile-money operator's cash-ins per day by region, at its base level of January 2023 (a Monday):
# Odienné's some thirty-three times fewer than Abidjan's
_CI_CASH_INS = {"abidjan": 40_000.0, "bouake": 9_000.0, "san_pedro": 7_000.0, "yamoussoukro": 5_000.0,
                "korhogo": 4_000.0, "man": 2_500.0, "odienne": 1_200.0}
_CI_WEEK = (1.05, 1.0, 1.0, 1.0, 1.1, 0.9, 0.6)  # Monday first
_CI_NORTH = ("korhogo", "odienne", "bouake")  # where most households keep Tabaski (a sheep bought)
# (in no calendar) the three days before the calendar's Eid al-Adha (Tabaski): the north x1.6, elsewhere x1.15
_CI_TABASKI = (3, 1.6, 1.15)
_CI_MONTH_TURN = ((28, 3), 1.2)  # (in no calendar) salaries: the 28th to the 3rd x1.2
_CI_HOLIDAY = 0.55
# the presidential election, Saturday 25 October 2025, declared a day off a week before (the owner adds it to the
# calendar's dates): x0.35; in no calendar the two days before (stocking up, x1.2) and the two after (everyone
# home awaiting the results, x0.7)
_CI_ELECTION = (date(2025, 10, 25), "Presidential election", 0.35, 2, 1.2, 2, 0.7)
# a transfer tax announced a week ahead, levied from Monday 2 February 2026: cash-ins rushed in the three days
# before (x1.4) and held back the two weeks after (x0.8), then back to their level
_CI_TAX = (date(2026, 2, 2), 3, 1.4, 14, 0.8)
_CI_CHAIN = (date(2026, 3, 2), "san_pedro", 1.3)  # a Monday: a supermarket chain takes the wallet in San Pédro
_CI_USSD_DOWN = (date(2024, 9, 12), 0.4)  # a Thursday: the USSD gateway down most of the day (everywhere)


def _ci_election(d: date) -> int | None:
    """`d`'s days from the election (-2 to 2), None outside them."""
    k = (d - _CI_ELECTION[0]).days
    return k if -_CI_ELECTION[3] <= k <= _CI_ELECTION[5] else None


def _ci_tax(d: date) -> float:
    """The transfer tax's factor on `d`: the rush before it, the two weeks held back after it."""
    k = (d - _CI_TAX[0]).days
    if -_CI_TAX[1] <= k < 0:
        return _CI_TAX[2]
    return _CI_TAX[4] if 0 <= k < _CI_TAX[3] else 1.0


def _ci_days_to_tabaski(d: date, cal: HolidayCalendar) -> int | None:
    """How many days before the calendar's Eid al-Adha `d` falls (1 its eve), up to three."""
    for k in range(1, _CI_TABASKI[0] + 1):
        if "Eid al-Adha" in (cal.name(d + timedelta(days=k)) or ""):
            return k
    return None


def _ci_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's cash-ins on `d` against its base level: the week, the month's turn, the holidays, Tabaski's run-up,
    the election, the transfer tax and San Pédro's chain."""
    f = _CI_WEEK[d.weekday()]
    if d.day >= _CI_MONTH_TURN[0][0] or d.day <= _CI_MONTH_TURN[0][1]:
        f *= _CI_MONTH_TURN[1]
    k = _ci_election(d)
    if k == 0:
        f *= _CI_ELECTION[2]
    elif cal.name(d):
        f *= _CI_HOLIDAY
    elif k is not None:
        f *= _CI_ELECTION[4] if k < 0 else _CI_ELECTION[6]
    elif _ci_days_to_tabaski(d, cal) is not None:
        f *= _CI_TABASKI[1] if region in _CI_NORTH else _CI_TABASKI[2]
    f *= _ci_tax(d)
    if region == _CI_CHAIN[1] and d >= _CI_CHAIN[0]:
        f *= _CI_CHAIN[2]
    return f


def cashins_ci(seed: int) -> Estate:
    """Blind (thirty-eighth round): an Ivorian mobile-money operator's cash-ins per day by region (seven: Abidjan's
    40,000 at its base level of January 2023 (a Monday), Bouaké's 9,000, San Pédro's 7,000, Yamoussoukro's 5,000,
    Korhogo's 4,000, Man's 2,500 and Odienné's 1,200, some thirty-three times fewer; in an order set by the seed), on
    Côte d'Ivoire's holidays (the `holidays` package's CI: New Year, Easter Monday, Labour Day, Ascension, Whit Monday,
    Independence Day 7 August, Assumption, All Saints', National Peace Day 15 November, Christmas, and the Muslim days
    some named for the day after their night ("Day after Night of Power", "Day after Prophet's Birthday"), Eid al-Fitr
    and Eid al-Adha: x0.55), with one date the owner adds to the calendar: the presidential election on Saturday 25
    October 2025, declared a day off a week before (x0.35). The week (`_CI_WEEK`: Friday x1.1, Sunday x0.6); the
    salaries' month turn, the 28th to the 3rd (x1.2). In no calendar: the three days before Tabaski (the calendar's Eid
    al-Adha; x1.6 in the north, Korhogo, Odienné and Bouaké, x1.15 elsewhere); the election's two days before (x1.2) and
    two after (x0.7); a transfer tax announced a week ahead and levied from Monday 2 February 2026 (the three days
    before it x1.4, the two weeks from it x0.8). From Monday 2 March 2026 a supermarket chain takes the wallet in San
    Pédro (x1.3, the others unmoved; accepted by the owner as a shift). The USSD gateway was down most of Thursday 12
    September 2024 (x0.4 everywhere; an unlabelled incident, history only). 5% noise per region and day; +12% a year.
    From Monday 2 January 2023 (1,290 days, to Tuesday 14 July 2026): from Monday 5 May 2025 evaluated (854 days of
    history); categories "election", "before_election", "after_election", "tabaski_run_up", "before_tax", "after_tax",
    "holiday", "month_turn", "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="CI", dates={_CI_ELECTION[0]: _CI_ELECTION[1]})
    regions = _unequal(rng, list(_CI_CASH_INS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_CI_USSD_DOWN[1] if d == _CI_USSD_DOWN[0] else 1.0) * 1.12 ** (i / 365.25)
        series.append((at, [_noisy(rng, _CI_CASH_INS[r] * _ci_day(d, r, cal) * lift, 0.05) for r in regions]))
        k, tax = _ci_election(d), (d - _CI_TAX[0]).days
        if d == _CI_USSD_DOWN[0]:
            incidents.add(at)
        elif k == 0:
            cats[at] = "election"
        elif cal.name(d):
            cats[at] = "holiday"
        elif k is not None:
            cats[at] = "before_election" if k < 0 else "after_election"
        elif _ci_days_to_tabaski(d, cal) is not None:
            cats[at] = "tabaski_run_up"
        elif -_CI_TAX[1] <= tax < 0:
            cats[at] = "before_tax"
        elif 0 <= tax < _CI_TAX[3]:
            cats[at] = "after_tax"
        elif d.day >= _CI_MONTH_TURN[0][0] or d.day <= _CI_MONTH_TURN[0][1]:
            cats[at] = "month_turn"
    shift = datetime(_CI_CHAIN[0].year, _CI_CHAIN[0].month, _CI_CHAIN[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("cashins_ci", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Venezuelan supermarket chain's receipts per day by store, at an ordinary day's level of January 2023: Mérida's
# some eleven times fewer than Caracas's
_VE_RECEIPTS = {"caracas": 9_000.0, "valencia": 6_000.0, "maracaibo": 4_500.0, "merida": 800.0}
_VE_WEEK = (0.9, 0.9, 0.95, 0.95, 1.1, 1.35, 0.85)  # Monday first: Saturday's big shop
_VE_PAYDAYS = (1.3, 2)  # the quincena's pay on the 15th and the month's last day: it and the next day x1.3
# the calendar's holidays: the stores shut on Good Friday, Christmas Day and New Year's Day (x0), x0.6 on the others;
# Mérida (the Andes' holiday town) x1.8 on Carnival's and Holy Week's days and the weekend before them
_VE_SHUT = ("Good Friday", "Christmas Day", "New Year's Day")
_VE_HOLIDAY = 0.6
_VE_MERIDA_HOLIDAY = 1.8
# (in no calendar) the aguinaldos (the year-end bonus, paid in the first half of December): December's first half
# x1.45, its second x1.3 (before the calendar's Christmas Eve and Day)
_VE_AGUINALDOS = (1.45, 1.3)
_VE_SCHOOL = ((9, 1), (9, 15), 1.2)  # (in no calendar) back to school, 1-15 September
_VE_ENLARGED = (date(2026, 3, 1), "valencia", 1.3)  # Valencia's store enlarged from the half-month of 1 March 2026
_VE_POS_DOWN = (date(2024, 5, 20), date(2024, 5, 22), 0.4)  # the card network down three days (everywhere)


def _ve_day(d: date, store: str, cal: HolidayCalendar) -> float:
    """A store's receipts on `d` against an ordinary day: the week, the paydays, the holidays (Mérida's
    tourists), the aguinaldos, back to school."""
    f = _VE_WEEK[d.weekday()]
    month_end = date(d.year + (d.month == 12), d.month % 12 + 1, 1) - timedelta(days=1)
    if any(0 <= (d - p).days < _VE_PAYDAYS[1] for p in (date(d.year, d.month, 15), month_end)):
        f *= _VE_PAYDAYS[0]
    name = cal.name(d) or ""
    tourist = any(n in (cal.name(d + timedelta(days=k)) or "") for k in range(3) for n in ("Carnival", "Maundy"))
    if store == "merida" and (tourist or name.startswith(("Carnival", "Maundy", "Good Friday"))):
        f *= _VE_MERIDA_HOLIDAY
    elif name in _VE_SHUT:
        f = 0.0
    elif name:
        f *= _VE_HOLIDAY
    if d.month == 12:
        f *= _VE_AGUINALDOS[0] if d.day <= 15 else _VE_AGUINALDOS[1]
    if _VE_SCHOOL[0] <= (d.month, d.day) <= _VE_SCHOOL[1]:
        f *= _VE_SCHOOL[2]
    if store == _VE_ENLARGED[1] and d >= _VE_ENLARGED[0]:
        f *= _VE_ENLARGED[2]
    return f


def groceries_ve_semimonthly(seed: int) -> Estate:
    """Blind (thirty-eighth round): a Venezuelan supermarket chain's receipts per half-month by store (four: Caracas's
    9,000 an ordinary day at its base level of January 2023, Valencia's 6,000, Maracaibo's 4,500 and Mérida's 800, some
    eleven times fewer; in an order set by the seed): the chain's sales table is partitioned per quincena, the 1st to
    the 15th and the 16th to the month's end, keyed on the first day (a partition definition on the cron "0 0 1,16 *
    *"), so a half-month holds 13 to 16 days and its count of Saturdays moves. A day: the week (`_VE_WEEK`: Saturday
    x1.35), the quincena's paydays (the 15th and the month's last day, each and its next day x1.3). On Venezuela's
    holidays (the `holidays` package's VE: Carnival's Monday and Tuesday, Maundy Thursday and Good Friday, 19 April, 1
    May, 2026's Family Day 15 May, 24 June, 5 and 24 July, 12 October, Christmas Eve and Day, New Year's Eve and Day):
    the stores shut on Good Friday, Christmas Day and New Year's Day, x0.6 on the others, but Mérida (the Andes' holiday
    town) x1.8 on Carnival's and Holy Week's days and the two days before each (Carnival's weekend). In no calendar: the
    aguinaldos, the year-end bonus (December's first half x1.45, its second x1.3); back to school (1-15 September x1.2).
    From the half-month of 1 March 2026 Valencia's store enlarged (x1.3, the others unmoved; accepted by the owner as a
    shift). The card network was down from 20 to 22 May 2024 (those days x0.4 everywhere; the half-month unlabelled,
    history only). 3% noise per store and half-month; +5% a year. From 1 January 2023 (96 half-months, to 31 December
    2026): three years read, 2026 evaluated (24 half-months); categories "carnival", "holy_week" (the half-months
    holding their holidays), "aguinaldos" (December's), "back_to_school", "after_shift" (the next four half-months)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="VE")
    stores = _unequal(rng, list(_VE_RECEIPTS))
    halves = _half_months(date(2023, 1, 1), 96)
    series, cats, incidents = [], {}, set()
    for first, last in halves:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        values = []
        for s in stores:
            f = 0.0
            for d in days:
                down = _VE_POS_DOWN[2] if _VE_POS_DOWN[0] <= d <= _VE_POS_DOWN[1] else 1.0
                f += _ve_day(d, s, cal) * down * 1.05 ** ((d - halves[0][0]).days / 365.25)
            values.append(_noisy(rng, _VE_RECEIPTS[s] * f, 0.03))
        series.append((at, values))
        names = {cal.name(d) or "" for d in days}
        if first <= _VE_POS_DOWN[0] <= last:
            incidents.add(at)
        elif any(n.startswith("Carnival") for n in names):
            cats[at] = "carnival"
        elif "Maundy Thursday" in names or "Good Friday" in names:
            cats[at] = "holy_week"
        elif first.month == 12:
            cats[at] = "aguinaldos"
        elif (first.month, first.day) == _VE_SCHOOL[0]:
            cats[at] = "back_to_school"
    shift = datetime(_VE_ENLARGED[0].year, _VE_ENLARGED[0].month, _VE_ENLARGED[0].day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 5]:
        cats.setdefault(at, "after_shift")
    return Estate("groceries_ve_semimonthly", "day", series, 72, cal, cats, [shift], incidents=incidents)


# a Beirut food-delivery app's orders per local hour by district, at an ordinary weekday's 20:00 of March 2026: Jounieh's
# some sixteen times fewer than Achrafieh's
_LB_ORDERS = {"achrafieh": 640.0, "hamra": 520.0, "verdun": 380.0, "jounieh": 40.0}
# an ordinary weekday's hours, local midnight first: lunch 12:00-13:59, dinner 19:00-21:59 (20:00 = 1), little at dawn
_LB_HOURS = (0.3, 0.15, 0.07, 0.03, 0.02, 0.02, 0.04, 0.1, 0.2, 0.25, 0.3, 0.45, 0.8, 0.85, 0.6, 0.4, 0.4, 0.5, 0.7,
             0.95, 1.0, 0.9, 0.7, 0.5)
_LB_SATURDAY = 1.1
_LB_SUNDAY = ((12, 15), 1.4, 0.95)  # Sunday: the family lunch 12:00-14:59, its other hours
# (in no calendar) Ramadan, the 29 days before the calendar's Eid al-Fitr: pre-iftar orders 16:00-17:59 x1.6, iftar
# 18:00-19:59 x0.4, suhoor 01:00-03:59 x2.5, each district by its share of fasting households (Verdun's whole, Hamra's
# half, the Christian east's none)
_LB_RAMADAN = (29, (16, 18), 1.6, (18, 20), 0.4, (1, 4), 2.5)
_LB_FASTING = {"verdun": 1.0, "hamra": 0.5, "achrafieh": 0.0, "jounieh": 0.0}
# the calendar's Good Fridays (Catholic 3 April, Orthodox 10 April 2026): the east's districts (Achrafieh, Jounieh)
# fast until the afternoon (x0.5 until 14:59 on the Catholic one, x0.7 on the Orthodox one); another holiday x1.1
_LB_EAST = ("achrafieh", "jounieh")
_LB_GOOD_FRIDAY = (15, 0.5, 0.7)
_LB_HOLIDAY = 1.1
# (in no calendar) Catholic Easter Sunday (5 April 2026): the east's lunch at home (11:00-15:59 x0.5), its evening of
# leftovers' fatigue 19:00-22:59 x1.3
_LB_EASTER = ((11, 16), 0.5, (19, 23), 1.3)
_LB_BURGERS = (datetime(2026, 4, 7, 11), "hamra", 1.25)  # local: a burger chain joins the app in Hamra, from 11:00
_LB_APP_DOWN = (date(2026, 3, 13), range(20, 22), 0.1)  # local: the app down a Friday evening (every district)


def _lb_eid(d: date, cal: HolidayCalendar) -> date | None:
    """The first day of the calendar's Eid al-Fitr of `d`'s year or the next (the end of the Ramadan holding `d`)."""
    for year in (d.year, d.year + 1):
        days = [h for h in _holiday_days(cal, year) if "Eid al-Fitr" in (cal.name(h) or "") and h > d]
        if days:
            return days[0]
    return None


def _lb_ramadan(d: date, cal: HolidayCalendar) -> bool:
    """`d` one of Ramadan's days (the 29 days before the calendar's Eid al-Fitr, in no calendar)."""
    eid = _lb_eid(d, cal)
    return eid is not None and 0 < (eid - d).days <= _LB_RAMADAN[0]


def _lb_easter(d: date) -> bool:
    """`d` the Catholic Easter Sunday."""
    return d == _easter(d.year)


def _lb_hour(local: datetime, district: str, cal: HolidayCalendar) -> float:
    """A district's orders in the local hour `local` against its base level: the day's shape, the weekend, Ramadan's
    hours, the Good Fridays, Easter Sunday and Hamra's burger chain."""
    d, h = local.date(), local.hour
    f = _LB_HOURS[h]
    if d.weekday() == 5:
        f *= _LB_SATURDAY
    elif d.weekday() == 6:
        f *= _LB_SUNDAY[1] if _LB_SUNDAY[0][0] <= h < _LB_SUNDAY[0][1] else _LB_SUNDAY[2]
    if _lb_ramadan(d, cal):
        r = (_LB_RAMADAN[2] if _LB_RAMADAN[1][0] <= h < _LB_RAMADAN[1][1] else _LB_RAMADAN[4]
             if _LB_RAMADAN[3][0] <= h < _LB_RAMADAN[3][1] else _LB_RAMADAN[6]
             if _LB_RAMADAN[5][0] <= h < _LB_RAMADAN[5][1] else 1.0)
        f *= 1 + _LB_FASTING[district] * (r - 1)
    name = cal.name(d) or ""
    if "Good Friday" in name:
        if district in _LB_EAST and h < _LB_GOOD_FRIDAY[0]:
            f *= _LB_GOOD_FRIDAY[1] if "Catholic" in name else _LB_GOOD_FRIDAY[2]
    elif name:
        f *= _LB_HOLIDAY
    if _lb_easter(d) and district in _LB_EAST:
        if _LB_EASTER[0][0] <= h < _LB_EASTER[0][1]:
            f *= _LB_EASTER[1]
        elif _LB_EASTER[2][0] <= h < _LB_EASTER[2][1]:
            f *= _LB_EASTER[3]
    if district == _LB_BURGERS[1] and local >= _LB_BURGERS[0]:
        f *= _LB_BURGERS[2]
    return f


def deliveries_beirut_hourly(seed: int) -> Estate:
    """Blind (thirty-ninth round): a Beirut food-delivery app's orders per local hour by district (four: Achrafieh's
    640 at an ordinary weekday's 20:00 of March 2026, Hamra's 520, Verdun's 380 and Jounieh's 40, some sixteen times
    fewer; in an order set by the seed), in Asia/Beirut (two hours ahead of UTC in winter, three in summer: daylight
    saving starts at local midnight on Sunday 29 March 2026, inside the evaluated window, so that local day holds 23
    hours and no 00:00), on Lebanon's holidays (the `holidays` package's LB: Eid al-Fitr 20-21 March and the
    Annunciation 25 March in the history; the Catholic Good Friday 3 April and the Orthodox Good Friday 10 April 2026
    in the evaluated window: the east's districts (Achrafieh, Jounieh) x0.5 until 14:59 on the Catholic one and x0.7
    on the Orthodox one, the west unmoved; another holiday x1.1). Every hour holds rows (a weekday's shape
    `_LB_HOURS`: lunch 12:00-13:59, dinner 19:00-21:59, 04:00 x0.02; Jounieh's dawn hours may hold none); Saturdays
    x1.1, Sundays x0.95 and their family lunch 12:00-14:59 x1.4. In no calendar: Ramadan in the history (the 29 days
    before Eid al-Fitr, 19 February to 19 March 2026: pre-iftar 16:00-17:59 x1.6, iftar 18:00-19:59 x0.4, suhoor
    01:00-03:59 x2.5, in Verdun whole, in Hamra half, not in the east: most of the history's weeks hold it); the
    Catholic Easter Sunday 5 April 2026 (the east's lunch at home 11:00-15:59 x0.5, its evening 19:00-22:59 x1.3).
    From Tuesday 7 April 2026 11:00 a burger chain joins the app in Hamra (x1.25, the others unmoved; accepted by the
    owner as a shift). The app was down on Friday 13 March 2026 20:00-21:59 (x0.1 everywhere; an unlabelled incident,
    history only). Poisson counts with 7% extra noise per hour and district; +0.3% a week. From Saturday 28 February
    2026 00:00 local (42 local days, to Friday 10 April 23:00; 1,007 hours): 28 days of history, from Saturday 28 March
    00:00 evaluated (14 local days, 335 hours); categories "good_friday" (both Good Fridays' hours), "easter_sunday",
    "dst_day" (the 23 hours of 29 March), "after_dst" (30 and 31 March), "night" (00:00-05:59 of the other days),
    "after_shift" (the eighteen hours after the step, where no other category names them)."""
    rng = random.Random(seed)
    zone = "Asia/Beirut"
    cal = HolidayCalendar(country="LB")
    tz = ZoneInfo(zone)
    districts = _unequal(rng, list(_LB_ORDERS))
    start, first, dst = date(2026, 2, 28), date(2026, 3, 28), date(2026, 3, 29)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 4, 11), tz)
    series, cats, incidents = [], {}, set()
    while at < end:
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _LB_APP_DOWN[0] and h in _LB_APP_DOWN[1]
        lift = (_LB_APP_DOWN[2] if down else 1.0) * 1.003 ** ((d - start).days / 7)
        values = [_poisson(rng, _LB_ORDERS[g] * _lb_hour(local, g, cal) * lift * math.exp(rng.gauss(0, 0.07)))
                  for g in districts]
        series.append((at, values))
        if down:
            incidents.add(at)
        elif "Good Friday" in (cal.name(d) or ""):
            cats[at] = "good_friday"
        elif _lb_easter(d):
            cats[at] = "easter_sunday"
        elif d == dst:
            cats[at] = "dst_day"
        elif 1 <= (d - dst).days <= 2:
            cats[at] = "after_dst"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_LB_BURGERS[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("deliveries_beirut_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Tajik bank's inbound remittance payouts (money sent home by migrants abroad) per day by region, at an ordinary
# Tuesday's level of January 2023: the Rasht valley's agents some six times fewer than Dushanbe's, the Pamirs' (GBAO)
# some twenty-six times fewer
_TJ_PAYOUTS = {"dushanbe": 9_000.0, "khatlon": 7_000.0, "sughd": 5_500.0, "rasht": 1_500.0, "gbao": 350.0}
_TJ_WEEK = (1.1, 1.0, 1.0, 1.0, 0.9, 0.95, 0.35)  # Monday first: Friday's prayers, Sunday's branches shut (the app)
# the migrants' year by month (January first), read smoothly (`_season_at`): they leave after Nowruz, send most in
# the autumn (the weddings after the harvest) and carry December's money home in cash
_TJ_SEASON = (0.7, 0.65, 0.75, 0.9, 1.0, 1.05, 1.1, 1.2, 1.3, 1.35, 1.25, 0.95)
_TJ_NOWRUZ = 0.3  # the calendar's Nowruz days: the branches shut, the app's payouts alone
_TJ_EID = 0.4  # the calendar's Eids
_TJ_HOLIDAY = 0.5  # its other holidays
# (in no calendar) Ramadan, the 29 days before the calendar's Eid al-Fitr: x0.92; the three days before either Eid:
# money for the feast (x1.4; Idi Qurbon's sacrifice x1.6)
_TJ_RAMADAN = (29, 0.92)
_TJ_EID_RUN_UP = (3, 1.4, 1.6)
# the Rasht valley's agents leave the bank's network for good from Saturday 1 March 2025 (a rival's): zero after
_TJ_RASHT_CLOSED = ("rasht", date(2025, 3, 1))
_TJ_CARDS = (date(2026, 2, 2), "sughd", 1.3)  # a Monday: a Russian bank's card-to-card transfers paid out in Sughd
_TJ_PROCESSING_DOWN = (date(2024, 11, 14), 0.3)  # a Thursday: the processing centre down most of the day (everywhere)


def _tj_eid(d: date, cal: HolidayCalendar, name: str) -> date | None:
    """The first day of the calendar's next `name` (Eid al-Fitr, Eid al-Adha) after `d`, within a year."""
    for year in (d.year, d.year + 1):
        days = [h for h in _holiday_days(cal, year) if name in (cal.name(h) or "") and h > d]
        if days:
            return days[0]
    return None


def _tj_run_up(d: date, cal: HolidayCalendar) -> float | None:
    """The Eid run-up's factor when `d` is one of the three days before either Eid (and no holiday), else None."""
    if cal.name(d):
        return None
    for name, lift in (("Eid al-Fitr", _TJ_EID_RUN_UP[1]), ("Eid al-Adha", _TJ_EID_RUN_UP[2])):
        eid = _tj_eid(d, cal, name)
        if eid is not None and 0 < (eid - d).days <= _TJ_EID_RUN_UP[0]:
            return lift
    return None


def _tj_ramadan(d: date, cal: HolidayCalendar) -> bool:
    """`d` one of Ramadan's days (the 29 days before the calendar's Eid al-Fitr, in no calendar)."""
    eid = _tj_eid(d, cal, "Eid al-Fitr")
    return eid is not None and 0 < (eid - d).days <= _TJ_RAMADAN[0]


def _tj_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's payouts on `d` against its base level: the week, the migrants' year, the holidays, Ramadan and the
    Eids' run-ups, Rasht's agents gone and Sughd's card transfers."""
    if region == _TJ_RASHT_CLOSED[0] and d >= _TJ_RASHT_CLOSED[1]:
        return 0.0
    f = _TJ_WEEK[d.weekday()] * _season_at(list(_TJ_SEASON), d)
    name = cal.name(d) or ""
    if "Nowruz" in name:
        f *= _TJ_NOWRUZ
    elif "Eid" in name:
        f *= _TJ_EID
    elif name:
        f *= _TJ_HOLIDAY
    else:
        f *= _tj_run_up(d, cal) or 1.0
    if _tj_ramadan(d, cal):
        f *= _TJ_RAMADAN[1]
    if region == _TJ_CARDS[1] and d >= _TJ_CARDS[0]:
        f *= _TJ_CARDS[2]
    return f


def remittances_tj(seed: int) -> Estate:
    """Blind (thirty-ninth round): a Tajik bank's inbound remittance payouts (money sent home by migrants abroad) per
    day by region (five: Dushanbe's 9,000 an ordinary Tuesday at its base level of January 2023 (a Monday), Khatlon's
    7,000, Sughd's 5,500, the Rasht valley's 1,500 and the Pamirs' (GBAO) 350, some twenty-six times fewer; in an
    order set by the seed), on Tajikistan's holidays (the `holidays` package's TJ: New Year, Mother's Day 8 March,
    Nowruz's four days 21-24 March (x0.3, the branches shut), the Eids (x0.4; Eid al-Fitr on 20 March 2026, the eve of
    Nowruz), Victory Day, National Unity Day 27 June, Independence Day 9 September, Constitution Day 6 November: x0.5).
    The week (`_TJ_WEEK`: Monday x1.1, Friday x0.9, Sunday x0.35, the app alone). The migrants' year by month
    (`_TJ_SEASON`, read smoothly: February x0.65, October x1.35, December x0.95). In no calendar: Ramadan (the 29 days
    before Eid al-Fitr, x0.92) and the three days before either Eid (x1.4, Idi Qurbon's x1.6). The Rasht valley's
    agents left the bank's network for good on Saturday 1 March 2025 (that region at zero every day since, three
    months before the evaluated window). From Monday 2 February 2026 a Russian bank's card-to-card transfers paid out in
    Sughd (x1.3, the others unmoved; accepted by the owner as a shift). The processing centre was down most of Thursday
    14 November 2024 (x0.3 everywhere; an unlabelled incident, history only). 5% noise per region and day; +4% a
    year. From Monday 2 January 2023 (1,338 days, to Monday 31 August 2026): from Monday 2 June 2025 evaluated (882 days
    of history); categories "nowruz", "eid", "holiday" (the calendar's other days), "eid_run_up", "ramadan",
    "peak_season" (September and October's other days), "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="TJ")
    regions = _unequal(rng, list(_TJ_PAYOUTS))
    start, n = date(2023, 1, 2), 1338
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_TJ_PROCESSING_DOWN[1] if d == _TJ_PROCESSING_DOWN[0] else 1.0) * 1.04 ** (i / 365.25)
        series.append((at, [_noisy(rng, _TJ_PAYOUTS[r] * _tj_day(d, r, cal) * lift, 0.05) for r in regions]))
        name = cal.name(d) or ""
        if d == _TJ_PROCESSING_DOWN[0]:
            incidents.add(at)
        elif "Nowruz" in name:
            cats[at] = "nowruz"
        elif "Eid" in name:
            cats[at] = "eid"
        elif name:
            cats[at] = "holiday"
        elif _tj_run_up(d, cal) is not None:
            cats[at] = "eid_run_up"
        elif _tj_ramadan(d, cal):
            cats[at] = "ramadan"
        elif d.month in (9, 10):
            cats[at] = "peak_season"
    shift = datetime(_TJ_CARDS[0].year, _TJ_CARDS[0].month, _TJ_CARDS[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("remittances_tj", "day", series, stamps.index(datetime(2025, 6, 2)), cal, cats, [shift],
                  incidents=incidents)


# a Surinamese appliance and electronics retailer's receipts per day by store, at an ordinary Thursday's level of
# April 2023: Albina's (Marowijne) some twenty times fewer than Paramaribo-Noord's
_SR_RECEIPTS = {"paramaribo_noord": 1_800.0, "paramaribo_centrum": 1_500.0, "wanica": 1_200.0, "nickerie": 450.0,
                "commewijne": 300.0, "marowijne": 90.0}
_SR_WEEK = (0.9, 0.9, 0.95, 1.0, 1.25, 1.45, 0.12)  # Monday first: the stores shut on Sunday (the web shop alone)
_SR_HINDU = ("wanica", "nickerie")  # the districts where most households keep Holi (Phagwa) and Diwali
# the civil servants' pay on the 24th, rolled back to the business day before when it falls on a weekend or holiday:
# it and the two days after x1.45
_SR_PAYDAY = (24, 3, 1.45)
# the calendar's days: Christmas and New Year x0.1, Holi x0.6 (the Hindu districts x0.3), Diwali x0.5, the others x0.35
_SR_CLOSED = ("Christmas Day", "New Year's Day")
_SR_HOLIDAY = {"closed": 0.1, "Holi": 0.6, "holi_hindu": 0.3, "Diwali": 0.5, "other": 0.35}
# (in no calendar) Diwali's run-up, the ten days before the calendar's Diwali (lights and new appliances; its date
# moves by weeks between years on the Hindu lunisolar calendar): x1.35, the Hindu districts x1.7
_SR_DIWALI_RUN_UP = (10, 1.35, 1.7)
_SR_YEAR_END = ((12, 1), (12, 24), 1.5)  # (in no calendar) the year-end bonus's December, 1-24 December
# a national day of mourning declared two days ahead, Wednesday 14 January 2026 (the owner adds it to the calendar's
# dates): the stores shut but the web shop (x0.15)
_SR_MOURNING = (date(2026, 1, 14), "National day of mourning", 0.15)
_SR_MALL = (date(2026, 6, 8), "wanica", 1.3)  # a Monday: the Wanica store moved into a mall
_SR_CARDS_DOWN = (date(2024, 9, 7), 0.4)  # a Saturday: the card network down the afternoon (everywhere)


def _sr_paydays(cal: HolidayCalendar, first: date, last: date) -> set[date]:
    """The civil servants' paydays from `first` to `last`: each month's 24th, rolled back to a business day."""
    open_days = set(_business_days(cal, first - timedelta(days=40), last))
    out, y, m = set(), first.year, first.month
    while date(y, m, 1) <= last:
        out.add(_rolled_back(date(y, m, _SR_PAYDAY[0]), open_days))
        y, m = y + (m == 12), m % 12 + 1
    return out


def _sr_days_to_diwali(d: date, cal: HolidayCalendar) -> int | None:
    """How many days before the calendar's Diwali `d` falls (1 its eve), up to the run-up's ten."""
    for k in range(1, _SR_DIWALI_RUN_UP[0] + 1):
        if "Diwali" in (cal.name(d + timedelta(days=k)) or ""):
            return k
    return None


def _sr_day(d: date, store: str, cal: HolidayCalendar, paydays: set[date]) -> float:
    """A store's receipts on `d` against an ordinary Thursday: the week, the paydays, the holidays, Diwali's run-up, the
    year-end bonus and Wanica's mall."""
    f = _SR_WEEK[d.weekday()]
    if any(0 <= (d - p).days < _SR_PAYDAY[1] for p in paydays if abs((d - p).days) < 5):
        f *= _SR_PAYDAY[2]
    name = cal.name(d) or ""
    if d == _SR_MOURNING[0]:
        f *= _SR_MOURNING[2]
    elif name in _SR_CLOSED:
        f *= _SR_HOLIDAY["closed"]
    elif "Holi" in name:
        f *= _SR_HOLIDAY["holi_hindu" if store in _SR_HINDU else "Holi"]
    elif "Diwali" in name:
        f *= _SR_HOLIDAY["Diwali"]
    elif name:
        f *= _SR_HOLIDAY["other"]
    elif _sr_days_to_diwali(d, cal) is not None:
        f *= _SR_DIWALI_RUN_UP[2] if store in _SR_HINDU else _SR_DIWALI_RUN_UP[1]
    if _SR_YEAR_END[0] <= (d.month, d.day) <= _SR_YEAR_END[1]:
        f *= _SR_YEAR_END[2]
    if store == _SR_MALL[1] and d >= _SR_MALL[0]:
        f *= _SR_MALL[2]
    return f


def appliances_sr(seed: int) -> Estate:
    """Blind (thirty-ninth round): a Surinamese appliance and electronics retailer's receipts per day by store (six:
    Paramaribo-Noord's 1,800 an ordinary Thursday at its base level of April 2023, Paramaribo-Centrum's 1,500, Wanica's
    1,200, Nickerie's 450, Commewijne's 300 and Albina's (Marowijne) 90, some twenty times fewer; in an order set by the
    seed), on Suriname's holidays (the `holidays` package's SR, its many calendars: New Year, the Chinese New Year,
    Holi (Phagwa), the Eids, Good Friday and Easter Monday, Labour Day, Keti Koti 1 July, Indigenous People's Day 9
    August, the Maroons' Day 10 October, Diwali, Independence Day 25 November, Christmas's two days) with a national day
    of mourning declared two days ahead, Wednesday 14 January 2026, that the owner adds to the calendar's dates (the
    stores shut but the web shop, x0.15). The holidays: Christmas Day and New Year's Day x0.1, Holi x0.6 (x0.3 in the
    Hindu districts, Wanica and Nickerie), Diwali x0.5, the others x0.35. The week (`_SR_WEEK`: Friday x1.25, Saturday
    x1.45, Sunday x0.12, the stores shut). The civil servants' pay on the 24th, rolled back to the business day before
    when it falls on a weekend or a holiday: it and the two days after x1.45. In no calendar: Diwali's run-up (the ten
    days before the calendar's Diwali, 12 November 2023, 31 October 2024, 20 October 2025, 8 November 2026: x1.35, x1.7
    in the Hindu districts); the year-end bonus's December (1-24 December x1.5). From Monday 8 June 2026 the Wanica
    store moved into a mall (x1.3, the others unmoved; accepted by the owner as a shift). The card network was down the
    afternoon of Saturday 7 September 2024 (x0.4 everywhere; an unlabelled incident, history only). 5% noise per store
    and day; +5% a year. From Monday 3 April 2023 (1,369 days, to Thursday 31 December 2026): from Monday 1 September
    2025 evaluated (882 days of history); categories "mourning", "holi", "diwali", "holiday" (the calendar's other
    days), "diwali_run_up", "year_end_bonus", "payday" (a payday and the two days after), "after_shift" (the four weeks
    after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SR", dates={_SR_MOURNING[0]: _SR_MOURNING[1]})
    stores = _unequal(rng, list(_SR_RECEIPTS))
    start, n = date(2023, 4, 3), 1369
    paydays = _sr_paydays(cal, start, start + timedelta(days=n))
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_SR_CARDS_DOWN[1] if d == _SR_CARDS_DOWN[0] else 1.0) * 1.05 ** (i / 365.25)
        series.append((at, [_noisy(rng, _SR_RECEIPTS[s] * _sr_day(d, s, cal, paydays) * lift, 0.05) for s in stores]))
        name = cal.name(d) or ""
        if d == _SR_CARDS_DOWN[0]:
            incidents.add(at)
        elif d == _SR_MOURNING[0]:
            cats[at] = "mourning"
        elif "Holi" in name:
            cats[at] = "holi"
        elif "Diwali" in name:
            cats[at] = "diwali"
        elif name:
            cats[at] = "holiday"
        elif _sr_days_to_diwali(d, cal) is not None:
            cats[at] = "diwali_run_up"
        elif _SR_YEAR_END[0] <= (d.month, d.day) <= _SR_YEAR_END[1]:
            cats[at] = "year_end_bonus"
        elif any(0 <= (d - p).days < _SR_PAYDAY[1] for p in paydays if abs((d - p).days) < 5):
            cats[at] = "payday"
    shift = datetime(_SR_MALL[0].year, _SR_MALL[0].month, _SR_MALL[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("appliances_sr", "day", series, stamps.index(datetime(2025, 9, 1)), cal, cats, [shift],
                  incidents=incidents)


# a Burkinabè bottled-water company's packs delivered per dekad by depot, at an ordinary day's level of January 2022:
# Ouahigouya's some eleven times fewer than Ouagadougou's
_BF_PACKS = {"ouagadougou": 12_000.0, "bobo_dioulasso": 6_000.0, "ouahigouya": 1_100.0}
_BF_WEEK = (1.0, 1.0, 1.0, 1.0, 1.05, 1.1, 0.2)  # Monday first: six delivery days, Sunday's urgent orders
# the year by month (January first), read smoothly (`_season_at`): the hot season (March to May), the rains (July to
# September), the harmattan's cool months
_BF_SEASON = (0.9, 1.1, 1.45, 1.6, 1.5, 1.15, 0.85, 0.75, 0.8, 1.05, 1.0, 0.9)
_BF_HOLIDAY = 0.3  # the calendar's holidays
# (in no calendar) Ramadan, the 29 days before the calendar's Eid al-Fitr: water for the iftar, the north (Ouahigouya)
# x1.25, elsewhere x1.1
_BF_RAMADAN = (29, 1.25, 1.1)
# (in no calendar) FESPACO, the film festival in odd years only: eight days from the last Saturday of February,
# Ouagadougou x1.5
_BF_FESPACO = (8, 1.5)
# (in no calendar) SIAO, the crafts fair in even years only: ten days from the last Friday of October, Ouagadougou x1.3
_BF_SIAO = (10, 1.3)
_BF_CONTRACT = (date(2026, 6, 1), "bobo_dioulasso", 1.3)  # a supermarket chain's contract in Bobo, from 1 June 2026
_BF_LOST_NOTES = (date(2024, 8, 11), "ouahigouya", 0.5)  # the dekad of 11 August 2024: half its delivery notes lost


def _bf_last_weekday(year: int, month: int, weekday: int) -> date:
    """The month's last `weekday` (Monday 0)."""
    last = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _bf_fespaco(d: date) -> bool:
    """`d` one of FESPACO's days (odd years: eight days from the last Saturday of February)."""
    if d.year % 2 == 0:
        return False
    return 0 <= (d - _bf_last_weekday(d.year, 2, 5)).days < _BF_FESPACO[0]


def _bf_siao(d: date) -> bool:
    """`d` one of SIAO's days (even years: ten days from the last Friday of October)."""
    if d.year % 2 == 1:
        return False
    return 0 <= (d - _bf_last_weekday(d.year, 10, 4)).days < _BF_SIAO[0]


def _bf_ramadan(d: date, cal: HolidayCalendar) -> bool:
    """`d` one of Ramadan's days (the 29 days before the calendar's Eid al-Fitr, in no calendar)."""
    for year in (d.year, d.year + 1):
        eids = [h for h in _holiday_days(cal, year) if "Eid al-Fitr" in (cal.name(h) or "") and h > d]
        if eids:
            return (eids[0] - d).days <= _BF_RAMADAN[0]
    return False


def _bf_day(d: date, depot: str, cal: HolidayCalendar) -> float:
    """A depot's packs on `d` against an ordinary day: the week, the season, the holidays, Ramadan, the festivals and
    Bobo's contract."""
    f = _BF_WEEK[d.weekday()] * _season_at(list(_BF_SEASON), d)
    if cal.name(d):
        f *= _BF_HOLIDAY
    if _bf_ramadan(d, cal):
        f *= _BF_RAMADAN[1] if depot == "ouahigouya" else _BF_RAMADAN[2]
    if depot == "ouagadougou" and _bf_fespaco(d):
        f *= _BF_FESPACO[1]
    if depot == "ouagadougou" and _bf_siao(d):
        f *= _BF_SIAO[1]
    if depot == _BF_CONTRACT[1] and d >= _BF_CONTRACT[0]:
        f *= _BF_CONTRACT[2]
    return f


def water_bf_dekadal(seed: int) -> Estate:
    """Blind (thirty-ninth round): a Burkinabè bottled-water company's packs delivered per dekad by depot (three:
    Ouagadougou's 12,000 an ordinary day at its base level of January 2022, Bobo-Dioulasso's 6,000 and Ouahigouya's
    1,100, some eleven times fewer; in an order set by the seed): the delivery table is partitioned per dekad, the
    1st-10th, the 11th-20th and the 21st to the month's end (8 to 11 days), keyed on the first day (a partition
    definition on the cron "0 0 1,11,21 * *"). A day: the week (`_BF_WEEK`: six delivery days, Sunday x0.2), the year
    by month (`_BF_SEASON`, read smoothly: the hot season's April x1.6, the rains' August x0.75), Burkina Faso's
    holidays (the `holidays` package's BF: New Year, Revolution Day 3 January, Women's Day, the Eids and the Prophet's
    Birthday (estimated), Easter Monday, Labour Day, Ascension, Independence Day 5 August, Assumption, Martyrs' Day 31
    October, All Saints', Proclamation Day 11 December, Christmas: x0.3). In no calendar: Ramadan (the 29 days before
    Eid al-Fitr, water for the iftar: Ouahigouya x1.25, elsewhere x1.1); two festivals in Ouagadougou that alternate
    years, FESPACO in odd years (eight days from the last Saturday of February: 25 February 2023 and 22 February 2025,
    x1.5) and SIAO in even years (ten days from the last Friday of October: 28 October 2022, 25 October 2024 and 30
    October 2026, x1.3). From the dekad of 1 June 2026 a supermarket chain's contract in Bobo-Dioulasso (x1.3, the
    others unmoved; accepted by the owner as a shift). Half of Ouahigouya's delivery notes of the dekad of 11 August 2024
    were lost (x0.5 there; an unlabelled incident, history only). 4% noise per depot and dekad; +6% a year. From 1
    January 2022 (180 dekads, to 31 December 2026): three years read, 2025 and 2026 evaluated (72 dekads); categories
    "fespaco", "siao" (a dekad holding a festival day), "ramadan" (a dekad holding five of its days at least),
    "hot_season" (March to May otherwise), "rains" (July to September otherwise), "after_shift" (the next three
    dekads, where no other category names them: the dekad of 1 July 2026 is "rains")."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BF")
    depots = _unequal(rng, list(_BF_PACKS))
    dekads = _dekads(date(2022, 1, 1), 180)
    lost = datetime(_BF_LOST_NOTES[0].year, _BF_LOST_NOTES[0].month, _BF_LOST_NOTES[0].day)
    series, cats = [], {}
    for first, last in dekads:
        at = datetime(first.year, first.month, first.day)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        values = []
        for p in depots:
            f = sum(_bf_day(d, p, cal) * 1.06 ** ((d - dekads[0][0]).days / 365.25) for d in days)
            f *= _BF_LOST_NOTES[2] if (first, p) == _BF_LOST_NOTES[:2] else 1.0
            values.append(_noisy(rng, _BF_PACKS[p] * f, 0.04))
        series.append((at, values))
        if at == lost:
            continue
        if any(_bf_fespaco(d) for d in days):
            cats[at] = "fespaco"
        elif any(_bf_siao(d) for d in days):
            cats[at] = "siao"
        elif sum(_bf_ramadan(d, cal) for d in days) >= 5:
            cats[at] = "ramadan"
        elif first.month in (3, 4, 5):
            cats[at] = "hot_season"
        elif first.month in (7, 8, 9):
            cats[at] = "rains"
    shift = datetime(_BF_CONTRACT[0].year, _BF_CONTRACT[0].month, _BF_CONTRACT[0].day)
    stamps = [at for at, _ in series]
    for at in stamps[stamps.index(shift) + 1:stamps.index(shift) + 4]:
        cats.setdefault(at, "after_shift")
    return Estate("water_bf_dekadal", "day", series, 108, cal, cats, [shift], incidents={lost})


# a Bishkek e-scooter rental app's rides per local hour by district, at an ordinary weekday's 18:00 of July 2026:
# the Alamedin suburbs' scooters some twenty times fewer than Pervomaisky's (the centre)
_KG_RIDES = {"pervomaisky": 900.0, "oktyabrsky": 600.0, "leninsky": 520.0, "sverdlovsky": 300.0, "alamedin": 45.0}
# an ordinary weekday's hours, local midnight first (18:00 = 1): the fleet nearly all charging at night, the
# commute at 08:00-09:00, the evening strolls 18:00-21:00
_KG_HOURS = [0.08, 0.04, 0.02, 0.02, 0.02, 0.04, 0.15, 0.55, 0.75, 0.55, 0.45, 0.5, 0.6, 0.6, 0.55, 0.6, 0.7, 0.85,
             1.0, 1.0, 0.95, 0.75, 0.45, 0.2]
_KG_WEEKEND = (1.1, 1.2, 10)  # Saturday's and Sunday's every hour, and their mornings (before 10:00) x0.6
# (in no calendar) a heat wave, Thursday 20 to Sunday 23 August 2026: the afternoons 12:00-17:59 x0.45 (too hot to
# ride), the late evenings 20:00-23:59 x1.5 (everyone out when it cools)
_KG_HEAT = (date(2026, 8, 20), 4, (12, 18), 0.45, (20, 24), 1.5)
# the calendar's Independence Day (Monday 31 August 2026): daytime x0.7, the fireworks' evening from 19:00 x1.6
_KG_HOLIDAY = (0.7, 19, 1.6)
_KG_CAMPUS = (datetime(2026, 8, 25, 7), "sverdlovsky", 1.35)  # local: a university campus's scooter zone, from 07:00
_KG_APP_DOWN = (date(2026, 8, 8), range(18, 21), 0.1)  # local: the app down a Saturday evening (every district)


def _kg_heat(d: date, h: int) -> float:
    """The heat wave's factor on the local hour `h` of `d`: its afternoons down, its late evenings up."""
    if not 0 <= (d - _KG_HEAT[0]).days < _KG_HEAT[1]:
        return 1.0
    if _KG_HEAT[2][0] <= h < _KG_HEAT[2][1]:
        return _KG_HEAT[3]
    return _KG_HEAT[5] if _KG_HEAT[4][0] <= h < _KG_HEAT[4][1] else 1.0


def _kg_hour(local: datetime, district: str, cal: HolidayCalendar) -> float:
    """A district's rides in the local hour `local` against its base level: the day's shape, the weekend, the
    holiday and its fireworks, the heat wave and Sverdlovsky's campus."""
    d, h = local.date(), local.hour
    f = _KG_HOURS[h]
    if d.weekday() >= 5:
        f *= _KG_WEEKEND[d.weekday() - 5] * (0.6 if h < _KG_WEEKEND[2] else 1.0)
    if cal.name(d):
        f *= _KG_HOLIDAY[0] if h < _KG_HOLIDAY[1] else _KG_HOLIDAY[2]
    f *= _kg_heat(d, h)
    if district == _KG_CAMPUS[1] and local >= _KG_CAMPUS[0]:
        f *= _KG_CAMPUS[2]
    return f


def scooters_bishkek_hourly(seed: int) -> Estate:
    """Blind (fortieth round): a Bishkek e-scooter rental app's rides per local hour by district (five: Pervomaisky's
    900 at an ordinary weekday's 18:00 of July 2026, Oktyabrsky's 600, Leninsky's 520, Sverdlovsky's 300 and the
    Alamedin suburbs' 45, some twenty times fewer; in an order set by the seed), in Asia/Bishkek (six hours ahead of
    UTC all year, no daylight saving), on Kyrgyzstan's holidays (the `holidays` package's KG: Independence Day Monday
    31 August 2026, in the evaluated window: x0.7 until 18:59, the fireworks' evening x1.6 from 19:00). Every hour
    holds rows (a weekday's shape `_KG_HOURS`: the fleet charging at night, 03:00 x0.02; the morning commute 08:00
    x0.75, the evening strolls 18:00-19:00 x1); Saturdays x1.1 and Sundays x1.2, their mornings before 10:00 x0.6. In no
    calendar: a heat wave from Thursday 20 to Sunday 23 August 2026 (its afternoons 12:00-17:59 x0.45, too hot to
    ride; its late evenings 20:00-23:59 x1.5, everyone out when it cools; its other hours unmoved). From Tuesday 25
    August 2026 07:00 a university campus's scooter zone in Sverdlovsky (x1.35, the others unmoved; accepted by the
    owner as a shift). The app was down on Saturday 8 August 2026 18:00-20:59 (x0.1 everywhere; an unlabelled
    incident, history only). Poisson counts with 8% extra noise per hour and district; +0.5% a week. From Wednesday
    22 July 2026 00:00 local (42 days of local hours, to Tuesday 1 September 23:00): 28 days of history, from
    Wednesday 19 August 00:00 evaluated (14 days, 336 hours); categories "independence" (the holiday's hours),
    "heat_afternoon" and "heat_evening" (the heat wave's two blocks), "night" (00:00-05:59 of the other days),
    "after_shift" (the eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Asia/Bishkek"
    cal = HolidayCalendar(country="KG")
    tz = ZoneInfo(zone)
    districts = _unequal(rng, list(_KG_RIDES))
    start, first = date(2026, 7, 22), date(2026, 8, 19)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 9, 2), tz)
    series, cats, incidents = [], {}, set()
    while at < end:
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _KG_APP_DOWN[0] and h in _KG_APP_DOWN[1]
        lift = (_KG_APP_DOWN[2] if down else 1.0) * 1.005 ** ((d - start).days / 7)
        values = [_poisson(rng, _KG_RIDES[g] * _kg_hour(local, g, cal) * lift * math.exp(rng.gauss(0, 0.08)))
                  for g in districts]
        series.append((at, values))
        heat = _kg_heat(d, h)
        if down:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "independence"
        elif heat < 1.0:
            cats[at] = "heat_afternoon"
        elif heat > 1.0:
            cats[at] = "heat_evening"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_KG_CAMPUS[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("scooters_bishkek_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Zimbabwean mobile-money operator's merchant payments per day by region, at its base level of January 2023 (a
# Monday): Masvingo's merchants some thirteen times fewer than Harare's; Chitungwiza's opened later (its full level)
_ZW_PAYMENTS = {"harare": 9_000.0, "bulawayo": 4_200.0, "mutare": 1_600.0, "gweru": 1_100.0, "masvingo": 700.0,
                "chitungwiza": 2_500.0}
_ZW_WEEK = (1.0, 0.95, 0.95, 1.0, 1.25, 1.15, 0.55)  # Monday first: Friday's and Saturday's shopping, Sunday's rest
# Chitungwiza's merchants opened on Monday 4 March 2024 and grew to their full level over 180 days (a logistic
# ramp from 2% of it), then as the others
_ZW_OPENING = ("chitungwiza", date(2024, 3, 4), 180, 0.02)
# from Monday 2 September 2024 Masvingo's merchants are settled under the Midlands region (Gweru's group): Masvingo
# reads zero every day since, Gweru holds both regions' payments
_ZW_MERGER = ("masvingo", "gweru", date(2024, 9, 2))
_ZW_HOLIDAY = 0.45  # the calendar's holidays (markets open, offices and many shops shut)
_ZW_MONTH_TURN = (3, 2, 1.2)  # the month's last three days and the next month's first two: the salaries, x1.2
_ZW_CHRISTMAS = ((12, 15), (12, 24), 1.3)  # (in no calendar) the Christmas shopping
_ZW_TILLS = (date(2026, 3, 2), "bulawayo", 1.3)  # a Monday: a supermarket chain's tills in Bulawayo
_ZW_SWITCH_DOWN = (date(2023, 11, 14), 0.4)  # a Tuesday: the payment switch down most of the day (every region)


def _zw_month_turn(d: date) -> bool:
    """`d` one of the month's last three days or the next month's first two (the salaries' days)."""
    last = (date(d.year + d.month // 12, d.month % 12 + 1, 1) - timedelta(days=1)).day
    return d.day > last - _ZW_MONTH_TURN[0] or d.day <= _ZW_MONTH_TURN[1]


def _zw_opening(d: date) -> float:
    """Chitungwiza's share of its full level on `d`: zero before its opening, a logistic ramp over its first days."""
    k = (d - _ZW_OPENING[1]).days
    if k < 0:
        return 0.0
    if k >= _ZW_OPENING[2]:
        return 1.0
    lo = _ZW_OPENING[3]
    return lo + (1 - lo) / (1 + math.exp(-10 * (k / _ZW_OPENING[2] - 0.5)))


def _zw_day(d: date, region: str, cal: HolidayCalendar) -> float:
    """A region's payments on `d` against its base level: the week, the holidays, the salaries, the Christmas
    shopping, Chitungwiza's opening, the merger and Bulawayo's tills."""
    f = _ZW_WEEK[d.weekday()]
    if cal.name(d):
        f *= _ZW_HOLIDAY
    if _zw_month_turn(d):
        f *= _ZW_MONTH_TURN[2]
    if _ZW_CHRISTMAS[0] <= (d.month, d.day) <= _ZW_CHRISTMAS[1]:
        f *= _ZW_CHRISTMAS[2]
    if region == _ZW_OPENING[0]:
        f *= _zw_opening(d)
    if d >= _ZW_MERGER[2]:
        if region == _ZW_MERGER[0]:
            return 0.0
        if region == _ZW_MERGER[1]:
            f *= 1 + _ZW_PAYMENTS[_ZW_MERGER[0]] / _ZW_PAYMENTS[_ZW_MERGER[1]]
    if region == _ZW_TILLS[1] and d >= _ZW_TILLS[0]:
        f *= _ZW_TILLS[2]
    return f


def payments_zw(seed: int) -> Estate:
    """Blind (fortieth round): a Zimbabwean mobile-money operator's merchant payments per day by region (six:
    Harare's 9,000 at its base level of January 2023 (a Monday), Bulawayo's 4,200, Chitungwiza's 2,500 once grown,
    Mutare's 1,600, Gweru's (the Midlands') 1,100 and Masvingo's 700, some thirteen times fewer; in an order set by
    the seed), on Zimbabwe's holidays (the `holidays` package's ZW: New Year, Youth Day 21 February, Good Friday to
    Easter Monday, Independence Day 18 April, Workers' Day, Africa Day, Heroes' and Defence Forces Days in August,
    Unity Day 22 December, Christmas and Boxing Day: x0.45). The week (`_ZW_WEEK`: Friday x1.25, Saturday x1.15,
    Sunday x0.55); the salaries' month turn (the last three days and the first two, x1.2). Two groups change in the
    history: Chitungwiza's merchants open on Monday 4 March 2024 (zero before) and grow to their level over 180 days
    (a logistic ramp from 2%); from Monday 2 September 2024 Masvingo's merchants are settled under the Midlands
    (Masvingo zero every day since, eight months before the evaluated window; Gweru holds both regions' payments,
    x1.64). In no calendar: the Christmas shopping 15-24 December (x1.3). From Monday 2 March 2026 a supermarket
    chain's tills in Bulawayo (x1.3, the others unmoved; accepted by the owner as a shift). The payment switch was
    down most of Tuesday 14 November 2023 (x0.4 everywhere; an unlabelled incident, history only). 5% noise per region
    and day; +7% a year. From Monday 2 January 2023 (1,290 days, to Tuesday 14 July 2026): from Monday 5 May 2025
    evaluated (854 days of history); categories "holiday", "christmas_shopping", "month_turn", "after_shift" (the
    four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ZW")
    regions = _unequal(rng, list(_ZW_PAYMENTS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_ZW_SWITCH_DOWN[1] if d == _ZW_SWITCH_DOWN[0] else 1.0) * 1.07 ** (i / 365.25)
        values = [_noisy(rng, _ZW_PAYMENTS[r] * _zw_day(d, r, cal) * lift, 0.05) for r in regions]
        series.append((at, values))
        if d == _ZW_SWITCH_DOWN[0]:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif _ZW_CHRISTMAS[0] <= (d.month, d.day) <= _ZW_CHRISTMAS[1]:
            cats[at] = "christmas_shopping"
        elif _zw_month_turn(d):
            cats[at] = "month_turn"
    shift = datetime(_ZW_TILLS[0].year, _ZW_TILLS[0].month, _ZW_TILLS[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("payments_zw", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Barbadian bakery's loaves and pastries delivered per day by channel, at its base level of January 2023 (a
# Monday): the petrol stations' shops some fourteen times smaller than the supermarkets
_BB_ITEMS = {"supermarkets": 5_000.0, "hotels": 1_800.0, "school_tuck_shops": 1_200.0, "petrol_stations": 350.0}
_BB_WEEK = (1.0, 0.95, 0.95, 1.0, 1.2, 1.3, 0.5)  # Monday first: Friday's and Saturday's shopping, Sunday's half
_BB_HOLIDAY = 0.35  # the calendar's holidays (the tuck shops shut: schools close)
# the tourist season, 15 December to 15 April: the hotels x1.5 (x0.85 otherwise)
_BB_SEASON = ((12, 15), (4, 15), 1.5, 0.85)
_BB_FIRST_DAY = 1.4  # a term's first day: the tuck shops stocked
_BB_CROP_OVER = (7, 1.3)  # (in no calendar) Crop Over's last week: the seven days before Kadooment Day, x1.3
_BB_RESORT = (date(2025, 11, 3), "hotels", 1.3)  # a Monday: a west-coast resort's contract
_BB_VAN_DOWN = (date(2024, 2, 8), "supermarkets", 0.55)  # a Thursday: the supermarkets' van broken down


def _bb_first_monday(year: int, month: int, day: int) -> date:
    """The first Monday on or after `day` of the month."""
    d = date(year, month, day)
    return d + timedelta(days=-d.weekday() % 7)


def _bb_terms(year: int) -> list[tuple[date, date, date]]:
    """The school year's terms starting in `year`'s autumn, as (first day, last day, half-term week's Monday): the
    Christmas term from the first Monday on or after 8 September to the Friday on or before 18 December (half-term
    the week of the last Monday of October); the Lent term from the first Monday on or after 6 January to the
    Thursday before Good Friday (half-term the week of the third Monday of February); the summer term from the
    Monday a week after Easter Monday to the first Friday on or after 4 July (half-term the week of Whit Monday)."""
    dec18 = date(year, 12, 18)
    easter = _easter(year + 1)
    july4 = date(year + 1, 7, 4)
    return [
        (_bb_first_monday(year, 9, 8), dec18 - timedelta(days=(dec18.weekday() - 4) % 7),
         _bb_first_monday(year, 10, 25)),
        (_bb_first_monday(year + 1, 1, 6), easter - timedelta(days=3), _bb_first_monday(year + 1, 2, 15)),
        (easter + timedelta(days=8), july4 + timedelta(days=(4 - july4.weekday()) % 7), easter + timedelta(days=50)),
    ]


def _bb_school(d: date) -> str:
    """`d`'s school kind: "term", "first_school_day", "half_term" or "school_holidays"."""
    for first, last, half in _bb_terms(d.year) + _bb_terms(d.year - 1):
        if first <= d <= last:
            if 0 <= (d - half).days < 7:
                return "half_term"
            return "first_school_day" if d == first else "term"
    return "school_holidays"


def _bb_crop_over(d: date, cal: HolidayCalendar) -> bool:
    """`d` one of the seven days before the calendar's Kadooment Day (Crop Over's last week)."""
    kadooment = next((h for h in _holiday_days(cal, d.year) if cal.name(h) == "Kadooment Day"), None)
    return kadooment is not None and 0 < (kadooment - d).days <= _BB_CROP_OVER[0]


def _bb_day(d: date, channel: str, cal: HolidayCalendar) -> float:
    """A channel's items on `d` against its base level: the week, the holidays, the school terms (the tuck shops),
    the tourist season (the hotels), Crop Over's last week and the resort's contract."""
    holiday = bool(cal.name(d))
    f = _BB_WEEK[d.weekday()] * (_BB_HOLIDAY if holiday else 1.0)
    if channel == "school_tuck_shops":
        school = _bb_school(d)
        if holiday or d.weekday() >= 5 or school in ("half_term", "school_holidays"):
            return 0.0
        f = _BB_FIRST_DAY if school == "first_school_day" else 1.0
    if channel == "hotels":
        high = (d.month, d.day) >= _BB_SEASON[0] or (d.month, d.day) <= _BB_SEASON[1]
        f *= _BB_SEASON[2] if high else _BB_SEASON[3]
    if channel != "school_tuck_shops" and _bb_crop_over(d, cal):
        f *= _BB_CROP_OVER[1]
    if channel == _BB_RESORT[1] and d >= _BB_RESORT[0]:
        f *= _BB_RESORT[2]
    return f


def bakery_bb(seed: int) -> Estate:
    """Blind (fortieth round): a Barbadian bakery's loaves and pastries delivered per day by channel (four: the
    supermarkets' 5,000 at its base level of January 2023 (a Monday), the hotels' 1,800, the school tuck shops' 1,200
    and the petrol stations' shops' 350, some fourteen times fewer; in an order set by the seed), on Barbados's
    holidays (the `holidays` package's BB: New Year, Errol Barrow Day 21 January, Good Friday, Easter Monday,
    National Heroes Day 28 April, May Day, Whit Monday, Emancipation Day 1 August, Kadooment Day (the first Monday of
    August), Independence Day 30 November, Christmas and Boxing Day: x0.35). The week (`_BB_WEEK`: Friday x1.2,
    Saturday x1.3, Sunday x0.5). In no calendar: the school terms (`_bb_terms`: the Christmas term from the first
    Monday on or after 8 September, the Lent term from the first Monday on or after 6 January to the Thursday before
    Good Friday, the summer term from the Monday a week after Easter Monday to early July, each with a half-term
    week: the week of the last Monday of October, the third Monday of February, Whit Monday's week): the tuck shops
    deliver on school days alone (zero at weekends, on holidays, in half-term weeks and the school holidays; flat
    through the school week) and x1.4 on a term's first day; the tourist season 15 December to 15 April (the hotels x1.5, x0.85 otherwise); Crop
    Over's last week, the seven days before Kadooment Day (x1.3 but the tuck shops). From Monday 3 November 2025 a
    west-coast resort's contract (the hotels x1.3, the others unmoved; accepted by the owner as a shift). The
    supermarkets' van broke down on Thursday 8 February 2024 (x0.55 there; an unlabelled incident, history only). 5%
    noise per channel and day; +5% a year. From Monday 2 January 2023 (1,290 days, to Tuesday 14 July 2026): from
    Monday 5 May 2025 evaluated (854 days of history); categories "holiday", "half_term", "school_holidays" (a
    weekday out of term), "first_school_day", "crop_over", "high_season" (the tourist season otherwise),
    "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BB")
    channels = _unequal(rng, list(_BB_ITEMS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.05 ** (i / 365.25)
        values = [_noisy(rng, _BB_ITEMS[c] * _bb_day(d, c, cal) * lift
                         * (_BB_VAN_DOWN[2] if (d, c) == _BB_VAN_DOWN[:2] else 1.0), 0.05) for c in channels]
        series.append((at, values))
        school = _bb_school(d)
        if d == _BB_VAN_DOWN[0]:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif _bb_crop_over(d, cal):
            cats[at] = "crop_over"
        elif d.weekday() < 5 and school in ("half_term", "school_holidays", "first_school_day"):
            cats[at] = school
        elif (d.month, d.day) >= _BB_SEASON[0] or (d.month, d.day) <= _BB_SEASON[1]:
            cats[at] = "high_season"
    shift = datetime(_BB_RESORT[0].year, _BB_RESORT[0].month, _BB_RESORT[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("bakery_bb", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Lao building-materials wholesaler's invoice lines per quarter by province, an ordinary day's lines at its base
# level of 2016: Luang Prabang's depot some nine times smaller than Vientiane's
_LA_LINES = {"vientiane": 900.0, "savannakhet": 380.0, "luang_prabang": 100.0}
_LA_RAINS = ((5, 1), (10, 31), 0.7)  # the rainy season, May to October: building slows, x0.7 a day
_LA_NEW_YEAR = (3, 0.6, 0.15)  # the calendar's Lao New Year: its days x0.15, the three days either side x0.6
# the government's budget year: October to September until 2017, the calendar year from 2018 (in this estate);
# its last quarter's invoices pushed before the year closes, x1.35 a day (the third quarter until 2017, the fourth
# from 2018)
_LA_BUDGET = (2018, 1.35)
_LA_DEPOT = (date(2025, 10, 1), "luang_prabang", 1.4)  # a second depot from the last quarter of 2025
_LA_LOST = (date(2019, 4, 1), "savannakhet", 0.6)  # the second quarter of 2019: an import's lost invoices


def _la_budget_end(first: date) -> bool:
    """The quarter of `first` is the budget year's last (the third until 2017, the fourth from 2018)."""
    return first.month == (10 if first.year >= _LA_BUDGET[0] else 7)


def _la_day(d: date, cal: HolidayCalendar) -> float:
    """An ordinary province's lines on `d` against an ordinary day: the week (Sunday shut, Saturday's morning), the
    rains, Lao New Year and its days around."""
    f = (1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0)[d.weekday()]
    if _LA_RAINS[0] <= (d.month, d.day) <= _LA_RAINS[1]:
        f *= _LA_RAINS[2]
    name = cal.name(d) or ""
    if name == "Lao New Year's Day":
        f *= _LA_NEW_YEAR[2]
    elif any(cal.name(d + timedelta(days=k)) == "Lao New Year's Day" for k in range(-_LA_NEW_YEAR[0],
                                                                                       _LA_NEW_YEAR[0] + 1)):
        f *= _LA_NEW_YEAR[1]
    elif name:
        f *= 0.2
    return f


def materials_la_quarterly(seed: int) -> Estate:
    """Blind (fortieth round): a Lao building-materials wholesaler's invoice lines per calendar quarter by province
    (three: Vientiane's 900 an ordinary day at its base level of 2016, Savannakhet's 380 and Luang Prabang's 100, some
    nine times fewer; in an order set by the seed), each quarter keyed on its first day, on Laos's holidays (the
    `holidays` package's LA: New Year, Women's Day, Lao New Year's three days in April (x0.15, the three days either
    side x0.6), Labour Day, National Day 2 December; the others x0.2). A day: Sunday shut, Saturday's morning x0.5; the
    rainy season May to October x0.7 (most of the second quarter's lift gone, the third quarter lowest). The
    government's budget year (October to September until 2017, the calendar year from 2018; in no calendar): its last
    quarter's invoices pushed before the year closes, x1.35 (the third quarters of 2016 and 2017, the fourth ones
    from 2018: the push moved a quarter later years before the evaluated window). From the last quarter of 2025 a
    second depot in Luang Prabang (x1.4, the others unmoved; accepted by the owner as a shift). Savannakhet's invoices
    of the second quarter of 2019 were partly lost with an import (x0.6 there; an unlabelled incident, history only).
    3% noise per province and quarter; +7% a year. From the first quarter of 2016 (44 quarters, to the last of 2026):
    eight years read, 2024 to 2026 evaluated (12 quarters); categories "budget_year_end" (a budget year's last
    quarter), "rains" (the third quarter otherwise), "new_year" (the second quarter, holding Lao New Year),
    "after_shift" (the next quarter, the first of 2026); the step's own quarter is the budget year's last."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="LA")
    provinces = _unequal(rng, list(_LA_LINES))
    series, cats, incidents = [], {}, set()
    for q in range(44):
        first = date(2016 + q // 4, 3 * (q % 4) + 1, 1)
        at = datetime(first.year, first.month, first.day)
        last = date(first.year + (first.month == 10), (first.month + 2) % 12 + 1, 1) - timedelta(days=1)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        base = sum(_la_day(d, cal) * 1.07 ** ((d - date(2016, 1, 1)).days / 365.25) for d in days)
        base *= _LA_BUDGET[1] if _la_budget_end(first) else 1.0
        values = []
        for p in provinces:
            f = base * (_LA_DEPOT[2] if p == _LA_DEPOT[1] and first >= _LA_DEPOT[0] else 1.0)
            f *= _LA_LOST[2] if (first, p) == _LA_LOST[:2] else 1.0
            values.append(_noisy(rng, _LA_LINES[p] * f, 0.03))
        series.append((at, values))
        if first == _LA_LOST[0]:
            incidents.add(at)
        elif _la_budget_end(first):
            cats[at] = "budget_year_end"
        elif first.month == 7:
            cats[at] = "rains"
        elif first.month == 4:
            cats[at] = "new_year"
    shift = datetime(_LA_DEPOT[0].year, _LA_DEPOT[0].month, _LA_DEPOT[0].day)
    stamps = [at for at, _ in series]
    cats.setdefault(stamps[stamps.index(shift) + 1], "after_shift")  # the next quarter
    return Estate("materials_la_quarterly", "day", series, 32, cal, cats, [shift], incidents=incidents)


# a Skopje taxi-hailing app's rides per local hour by municipality, at an ordinary weekday's 08:00 of October 2026:
# Saraj's some eighteen times fewer than Centar's
_MK_RIDES = {"centar": 720.0, "karposh": 480.0, "aerodrom": 400.0, "gazi_baba": 260.0, "saraj": 40.0}
_MK_HOURS = [0.25, 0.15, 0.1, 0.08, 0.08, 0.15, 0.45, 0.9, 1.0, 0.75, 0.6, 0.6, 0.65, 0.65, 0.7, 0.85, 0.95, 0.9,
             0.8, 0.7, 0.65, 0.6, 0.5, 0.35]
_MK_WEEKEND = (1.05, 0.75, 9, 0.5)  # Saturday's and Sunday's every hour, and their mornings (before 09:00) x0.5
# the nights out: Friday's and Saturday's (and a day off's eve's) late evenings 21:00-23:59 and the small hours after
# them, 00:00-02:59 of the next day, x1.6
_MK_NIGHT_OUT = (21, 3, 1.6)
_MK_HOLIDAY = 0.7  # the calendar's days off (06:00-23:59): no commute
# (in no calendar) the city buses' strike, Tuesday 27 to Friday 30 October 2026: the commute hours 06:00-09:59 and
# 15:00-18:59 x1.9 (the bus riders take taxis), its other hours 06:00-22:59 x1.3
_MK_STRIKE = (date(2026, 10, 27), 4, ((6, 10), (15, 19)), 1.9, (6, 23), 1.3)
_MK_RANK = (datetime(2026, 10, 21, 7), "aerodrom", 1.3)  # local: a shopping mall's taxi rank, from 07:00
_MK_APP_DOWN = (date(2026, 10, 10), range(19, 22), 0.1)  # local: the app down a Saturday evening (every municipality)
_MK_CLOCKS_BACK = (date(2026, 10, 25), 4)  # local: the clocks go back, 03:00 to 02:00: the day's hours before 04:00


def _mk_strike(d: date, h: int) -> str | None:
    """The bus strike's kind of the local hour `h` of `d`: "strike_commute", "strike_day" or None."""
    if not 0 <= (d - _MK_STRIKE[0]).days < _MK_STRIKE[1]:
        return None
    if any(lo <= h < hi for lo, hi in _MK_STRIKE[2]):
        return "strike_commute"
    return "strike_day" if _MK_STRIKE[4][0] <= h < _MK_STRIKE[4][1] else None


def _mk_night_out(d: date, h: int, cal: HolidayCalendar) -> bool:
    """The local hour `h` of `d` a night out's: the late evening before a Saturday, a Sunday or a day off, or the
    small hours of that day."""
    if h >= _MK_NIGHT_OUT[0]:
        after = d + timedelta(days=1)
    elif h < _MK_NIGHT_OUT[1]:
        after = d
    else:
        return False
    return after.weekday() >= 5 or bool(cal.name(after))


def _mk_hour(local: datetime, municipality: str, cal: HolidayCalendar) -> float:
    """A municipality's rides in the local hour `local` against its base level: the day's shape, the weekend, the
    nights out, the days off, the bus strike and Aerodrom's taxi rank."""
    d, h = local.date(), local.hour
    f = _MK_HOURS[h]
    if d.weekday() >= 5:
        f *= _MK_WEEKEND[d.weekday() - 5] * (_MK_WEEKEND[3] if h < _MK_WEEKEND[2] else 1.0)
    if _mk_night_out(d, h, cal):
        f *= _MK_NIGHT_OUT[2]
    if cal.name(d) and h >= 6:
        f *= _MK_HOLIDAY
    strike = _mk_strike(d, h)
    if strike:
        f *= _MK_STRIKE[3] if strike == "strike_commute" else _MK_STRIKE[5]
    if municipality == _MK_RANK[1] and local >= _MK_RANK[0]:
        f *= _MK_RANK[2]
    return f


def taxis_skopje_hourly(seed: int) -> Estate:
    """Blind (forty-first round): a Skopje taxi-hailing app's rides per local hour by municipality (five: Centar's 720
    at an ordinary weekday's 08:00 of October 2026, Karpoš's 480, Aerodrom's 400, Gazi Baba's 260 and Saraj's 40, some
    eighteen times fewer; in an order set by the seed), in Europe/Skopje (daylight saving ends inside the evaluated
    window: on Sunday 25 October 2026 the clocks go back from 03:00 to 02:00, a 25-hour local day with 02:00 twice), on
    North Macedonia's holidays (the `holidays` package's MK: National Uprising Day Sunday 11 October 2026 and its
    observed Monday 12 October in the history, the Day of the Macedonian Revolutionary Struggle Friday 23 October
    2026 in the evaluated window: x0.7 from 06:00, no commute). Every hour holds rows (a weekday's shape `_MK_HOURS`:
    03:00 x0.08, the morning commute 08:00 x1, the afternoon's 16:00 x0.95); Saturdays x1.05 and Sundays x0.75, their
    mornings before 09:00 x0.5; the nights out (21:00-23:59 before a Saturday, a Sunday or a day off, and 00:00-02:59
    of that day) x1.6. In no calendar: the city buses' strike from Tuesday 27 to Friday 30 October 2026 (the commute
    hours 06:00-09:59 and 15:00-18:59 x1.9, the bus riders taking taxis; its other hours 06:00-22:59 x1.3; its nights
    unmoved). From Wednesday 21 October 2026 07:00 a shopping mall's taxi rank in Aerodrom (x1.3, the others unmoved;
    accepted by the owner as a shift). The app was down on Saturday 10 October 2026 19:00-21:59 (x0.1 everywhere; an
    unlabelled incident, history only). Poisson counts with 8% extra noise per hour and municipality; +0.4% a week. From
    Monday 21 September 2026 00:00 local (41 days of local hours, to Saturday 31 October 23:00; 985 hours): 28 days of
    history, from Monday 19 October 00:00 evaluated (13 days, 313 hours); categories "holiday" (the day off's hours),
    "strike_commute" and "strike_day" (the strike's two kinds of hours), "clock_change" (Sunday 25 October's
    00:00-03:59 local: five hours, 02:00 twice), "night_out" and "night" (00:00-05:59 of the other days), "after_shift" (the
    eighteen hours after the step)."""
    rng = random.Random(seed)
    zone = "Europe/Skopje"
    cal = HolidayCalendar(country="MK")
    tz = ZoneInfo(zone)
    municipalities = _unequal(rng, list(_MK_RIDES))
    start, first = date(2026, 9, 21), date(2026, 10, 19)
    at, end = _utc_hour(datetime(start.year, start.month, start.day), tz), _utc_hour(datetime(2026, 11, 1), tz)
    series, cats, incidents = [], {}, set()
    while at < end:
        local = _local_hour(at, tz)
        d, h = local.date(), local.hour
        down = d == _MK_APP_DOWN[0] and h in _MK_APP_DOWN[1]
        lift = (_MK_APP_DOWN[2] if down else 1.0) * 1.004 ** ((d - start).days / 7)
        values = [_poisson(rng, _MK_RIDES[m] * _mk_hour(local, m, cal) * lift * math.exp(rng.gauss(0, 0.08)))
                  for m in municipalities]
        series.append((at, values))
        strike = _mk_strike(d, h)
        if down:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif strike:
            cats[at] = strike
        elif d == _MK_CLOCKS_BACK[0] and h < _MK_CLOCKS_BACK[1]:
            cats[at] = "clock_change"
        elif _mk_night_out(d, h, cal):
            cats[at] = "night_out"
        elif h < 6:
            cats[at] = "night"
        at += timedelta(hours=1)
    stamps = [t for t, _ in series]
    shift = _utc_hour(_MK_RANK[0], tz)
    for t in stamps[stamps.index(shift) + 1:stamps.index(shift) + 19]:
        cats.setdefault(t, "after_shift")
    tail = _utc_hour(datetime(first.year, first.month, first.day), tz)
    return Estate("taxis_skopje_hourly", "hour", series, stamps.index(tail), cal, cats, [shift],
                  timezone=zone, incidents=incidents)


# a Moscow grocery-delivery app's orders per day by delivery zone, at its base level of January 2023 (a Monday): the
# dacha belt's (the summer-house villages outside the city) some seventeen times fewer than the centre's
_RU_ORDERS = {"centre": 6_000.0, "north": 4_200.0, "south": 3_500.0, "new_moscow": 1_800.0, "dacha_belt": 350.0}
_RU_WEEK = (1.0, 1.0, 1.0, 1.05, 1.15, 1.2, 1.1)  # Monday first: the city's week
# (in no calendar) the dacha season, 1 May to 30 September: the city's Fridays, Saturdays and Sundays emptied (the
# families at their summer houses); the dacha belt's every day up, most at the weekend (Monday first)
_RU_DACHA = ((5, 1), (9, 30), (1.0, 1.0, 1.0, 1.0, 0.9, 0.7, 0.75), (1.5, 1.5, 1.5, 1.6, 2.2, 3.0, 2.5))
# the May holidays: a day off or a weekend day from 1 to 11 May, the city x0.7 and the dacha belt x3 (the season's
# longest weekends)
_RU_MAY = (11, 0.7, 3.0)
_RU_HOLIDAY = 1.2  # the calendar's days off in the city (New Year's week, 23 February, 8 March ...): at home, ordering
_RU_TABLE = ((12, 29), (12, 30), 1.5)  # (in no calendar) the New Year table's shopping, 29-30 December
_RU_DARK_STORE = (date(2026, 2, 2), "new_moscow", 1.4)  # a Monday: a dark store opens in New Moscow
_RU_APP_DOWN = (date(2023, 11, 7), 0.45)  # a Tuesday: the couriers' app down most of the day (every zone)


def _ru_dacha_season(d: date) -> bool:
    """`d` in the dacha season (1 May to 30 September)."""
    return _RU_DACHA[0] <= (d.month, d.day) <= _RU_DACHA[1]


def _ru_may_holidays(d: date, cal: HolidayCalendar) -> bool:
    """`d` a day off or a weekend day of the May holidays (1 to 11 May)."""
    return d.month == 5 and d.day <= _RU_MAY[0] and (d.weekday() >= 5 or bool(cal.name(d)))


def _ru_day(d: date, zone: str, cal: HolidayCalendar) -> float:
    """A zone's orders on `d` against its base level: the week, the dacha season and the May holidays (the city down,
    the dacha belt up), the days off, the New Year table and New Moscow's dark store."""
    dacha = zone == "dacha_belt"
    f = _RU_WEEK[d.weekday()]
    if _ru_may_holidays(d, cal):
        f *= _RU_MAY[2] if dacha else _RU_MAY[1]
    elif _ru_dacha_season(d):
        f *= _RU_DACHA[3][d.weekday()] if dacha else _RU_DACHA[2][d.weekday()]
        f *= 1.0 if dacha or not cal.name(d) else _RU_HOLIDAY
    elif cal.name(d):
        f *= _RU_HOLIDAY
    if _RU_TABLE[0] <= (d.month, d.day) <= _RU_TABLE[1]:
        f *= _RU_TABLE[2]
    if zone == _RU_DARK_STORE[1] and d >= _RU_DARK_STORE[0]:
        f *= _RU_DARK_STORE[2]
    return f


def groceries_ru(seed: int) -> Estate:
    """Blind (forty-first round): a Moscow grocery-delivery app's orders per day by delivery zone (five: the centre's
    6,000 at its base level of January 2023 (a Monday), the north's 4,200, the south's 3,500, New Moscow's 1,800 and
    the dacha belt's 350, some seventeen times fewer; in an order set by the seed), on Russia's holidays (the
    `holidays` package's RU: the New Year holidays 1-8 January with Christmas, Defender of the Fatherland Day, 8 March,
    1 and 9 May, Russia Day, Unity Day, their observed days and the days off moved by decree, "Day off (substituted
    from ...)", such as Friday 2 May 2025 or 31 December: x1.2, at home ordering; in the dacha season the city's
    alone, and in the May holidays as their other days). The city's week
    (`_RU_WEEK`: Friday x1.15, Saturday x1.2, Sunday x1.1). In no calendar: the dacha season, 1 May to 30 September
    (the city's Fridays x0.9, Saturdays x0.7, Sundays x0.75, the families at their summer houses; the dacha belt
    x1.5 on weekdays, Friday x2.2, Saturday x3, Sunday x2.5, and its days off as any day); the May holidays (a day off
    or a weekend day from 1 to 11 May: the city x0.7, the dacha belt x3); the New Year table's shopping on 29-30
    December (x1.5 everywhere). From Monday 2 February 2026 a dark store in New Moscow (x1.4, the others unmoved;
    accepted by the owner as a shift). The couriers' app was down most of Tuesday 7 November 2023 (x0.45 everywhere;
    an unlabelled incident, history only). 5% noise per zone and day; +9% a year. From Monday 2 January 2023 (1,290
    days, to Tuesday 14 July 2026): from Monday 5 May 2025 evaluated (854 days of history); categories "holiday",
    "may_holidays" (a weekend day of the May holidays), "dacha_weekend" (a Friday to Sunday of the season otherwise),
    "dacha_season" (its other days), "new_year_table", "after_shift" (the four weeks after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="RU")
    zones = _unequal(rng, list(_RU_ORDERS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = (_RU_APP_DOWN[1] if d == _RU_APP_DOWN[0] else 1.0) * 1.09 ** (i / 365.25)
        values = [_noisy(rng, _RU_ORDERS[z] * _ru_day(d, z, cal) * lift, 0.05) for z in zones]
        series.append((at, values))
        if d == _RU_APP_DOWN[0]:
            incidents.add(at)
        elif cal.name(d):
            cats[at] = "holiday"
        elif _ru_may_holidays(d, cal):
            cats[at] = "may_holidays"
        elif _ru_dacha_season(d):
            cats[at] = "dacha_weekend" if d.weekday() >= 4 else "dacha_season"
        elif _RU_TABLE[0] <= (d.month, d.day) <= _RU_TABLE[1]:
            cats[at] = "new_year_table"
    shift = datetime(_RU_DARK_STORE[0].year, _RU_DARK_STORE[0].month, _RU_DARK_STORE[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("groceries_ru", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# an Angolan supermarket chain's receipts per day by store, at its base level of January 2023 (a Monday): Benguela's
# new store some seventeen times smaller than Talatona's
_AO_RECEIPTS = {"talatona": 5_200.0, "maianga": 3_800.0, "viana": 2_600.0, "kilamba": 1_900.0, "cacuaco": 1_100.0,
                "benguela": 300.0}
_AO_WEEK = (0.9, 0.9, 0.95, 1.0, 1.15, 1.35, 0.8)  # Monday first: Friday's and Saturday's shopping
_AO_HOLIDAY = 0.6  # the calendar's holidays: families at home, the shops' hours short
# the calendar's bridge days ("Day off for ...", a Monday before a Tuesday holiday or a Friday after a Thursday one):
# a day off with the shops open, x1.2
_AO_BRIDGE = ("Day off for", 1.2)
# (in no calendar) the first Saturday of each month, the chain's loyalty "big Saturday" after the salaries: x1.5
_AO_BIG_SATURDAY = (7, 1.5)
_AO_FESTAS = (((12, 20), (12, 24)), (12, 31), 1.4)  # (in no calendar) the Christmas shopping and New Year's Eve
_AO_ENLARGED = (date(2025, 9, 1), "kilamba", 1.35)  # a Monday: Kilamba's store enlarged
_AO_POWER_CUT = (date(2024, 3, 14), "viana", 0.3)  # a Thursday: Viana's store without power most of the day


def _ao_bridge(d: date, cal: HolidayCalendar) -> bool:
    """`d` one of the calendar's bridge days (its name "Day off for ...")."""
    return cal.name(d).startswith(_AO_BRIDGE[0])


def _ao_big_saturday(d: date) -> bool:
    """`d` the month's first Saturday."""
    return d.weekday() == 5 and d.day <= _AO_BIG_SATURDAY[0]


def _ao_festas(d: date) -> bool:
    """`d` one of the Christmas shopping's days (20-24 December) or New Year's Eve."""
    md = (d.month, d.day)
    return _AO_FESTAS[0][0] <= md <= _AO_FESTAS[0][1] or md == _AO_FESTAS[1]


def _ao_day(d: date, store: str, cal: HolidayCalendar) -> float:
    """A store's receipts on `d` against its base level: the week, the holidays and their bridge days, the big
    Saturday, the festas and Kilamba's enlarged store."""
    f = _AO_WEEK[d.weekday()]
    if _ao_bridge(d, cal):
        f *= _AO_BRIDGE[1]
    elif cal.name(d):
        f *= _AO_HOLIDAY
    if _ao_big_saturday(d):
        f *= _AO_BIG_SATURDAY[1]
    if _ao_festas(d):
        f *= _AO_FESTAS[2]
    if store == _AO_ENLARGED[1] and d >= _AO_ENLARGED[0]:
        f *= _AO_ENLARGED[2]
    return f


def supermarkets_ao(seed: int) -> Estate:
    """Blind (forty-first round): an Angolan supermarket chain's receipts per day by store (six: Talatona's 5,200 at
    its base level of January 2023 (a Monday), Maianga's 3,800, Viana's 2,600, Kilamba's 1,900, Cacuaco's 1,100 and
    Benguela's 300, some seventeen times fewer; in an order set by the seed), on Angola's holidays (the `holidays`
    package's AO: New Year, Liberation Movement Day 4 February, Carnival Day (Shrove Tuesday), Women's Day, Southern
    Africa Liberation Day, Peace Day 4 April, Good Friday, Labour Day, National Heroes' Day 17 September, All Souls' Day,
    Independence Day 11 November, Christmas: x0.6), with its bridge days ("Day off for ...": the Monday before a
    Tuesday holiday or the Friday after a Thursday one, such as Monday 3 February, Monday 3 March, Friday 2 May, Monday
    10 November and Friday 26 December 2025, Friday 2 January, Monday 16 February and Friday 18 September 2026: a day
    off with the shops open, x1.2). The week (`_AO_WEEK`: Friday x1.15, Saturday x1.35, Sunday x0.8). In no calendar:
    the month's first Saturday, the chain's loyalty "big Saturday" after the salaries (x1.5, on top of the Saturday's);
    the Christmas shopping 20-24 December and New Year's Eve (x1.4). From Monday 1 September 2025 Kilamba's store
    enlarged (x1.35, the others unmoved; accepted by the owner as a shift). Viana's store was without power most of
    Thursday 14 March 2024 (x0.3 there; an unlabelled incident, history only). 5% noise per store and day; +8% a
    year. From Monday 2 January 2023 (1,290 days, to Tuesday 14 July 2026): from Monday 5 May 2025 evaluated (854
    days of history); categories "holiday", "bridge_day", "big_saturday", "festas", "after_shift" (the four weeks
    after the step)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AO")
    stores = _unequal(rng, list(_AO_RECEIPTS))
    start, n = date(2023, 1, 2), 1290
    series, cats, incidents = [], {}, set()
    for i in range(n):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.08 ** (i / 365.25)
        values = [_noisy(rng, _AO_RECEIPTS[s] * _ao_day(d, s, cal) * lift
                         * (_AO_POWER_CUT[2] if (d, s) == _AO_POWER_CUT[:2] else 1.0), 0.05) for s in stores]
        series.append((at, values))
        if d == _AO_POWER_CUT[0]:
            incidents.add(at)
        elif _ao_bridge(d, cal):
            cats[at] = "bridge_day"
        elif cal.name(d):
            cats[at] = "holiday"
        elif _ao_festas(d):
            cats[at] = "festas"
        elif _ao_big_saturday(d):
            cats[at] = "big_saturday"
    shift = datetime(_AO_ENLARGED[0].year, _AO_ENLARGED[0].month, _AO_ENLARGED[0].day)
    _mark_after_shift(cats, [shift], timedelta(days=1), 29, first=1)
    stamps = [at for at, _ in series]
    return Estate("supermarkets_ao", "day", series, stamps.index(datetime(2025, 5, 5)), cal, cats, [shift],
                  incidents=incidents)


# a Bahamian customs broker's import entries per quarter by port, an ordinary weekday's entries at its base level of
# 2016: Abaco's some seventeen times fewer than Nassau's
_BS_ENTRIES = {"nassau": 1_500.0, "freeport": 520.0, "exuma": 150.0, "abaco": 90.0}
_BS_WEEK = (1.0, 1.0, 1.0, 1.0, 1.0, 0.3, 0.0)  # Monday first: Saturday's morning, Sunday shut
_BS_HOLIDAY = 0.1  # the calendar's holidays: customs closed but for perishables
_BS_CHRISTMAS_STOCK = ((10, 1), (11, 30), 1.25)  # the Christmas stock landed in October and November, x1.25 a day
# the hurricane season's worst, August to October: x0.85 a day (the out islands, Exuma and Abaco, x0.7)
_BS_HURRICANES = ((8, 1), (10, 31), 0.85, ("exuma", "abaco"), 0.7)
_BS_BUDGET_END = (4, 1.2)  # the government's budget year ends in June: its last quarter's imports pushed, x1.2
# a duty rise on imports announced in the 2025 budget (late May) for 1 January 2026: the fourth quarter of 2025's
# entries pushed ahead of it (x1.3), the first quarter of 2026's held back (x0.8)
_BS_DUTY = (date(2025, 10, 1), 1.3, date(2026, 1, 1), 0.8)
_BS_SHIPYARD = (date(2024, 7, 1), "freeport", 1.4)  # the third quarter of 2024: a shipyard's imports at Freeport
_BS_HURRICANE = (date(2019, 7, 1), {"abaco": 0.2, "freeport": 0.5})  # a hurricane's quarter: the northern ports shut


def _bs_quarter_kind(first: date) -> str | None:
    """The quarter of `first`'s kind: the duty rise's "duty_run_up" and "duty_held_back", "budget_year_end" (April to
    June), "hurricanes" (July to September) or "christmas_stock" (October to December); None for January to March."""
    if first == _BS_DUTY[0]:
        return "duty_run_up"
    if first == _BS_DUTY[2]:
        return "duty_held_back"
    return {_BS_BUDGET_END[0]: "budget_year_end", 7: "hurricanes", 10: "christmas_stock"}.get(first.month)


def _bs_day(d: date, port: str, cal: HolidayCalendar) -> float:
    """A port's entries on `d` against an ordinary weekday: the week, the holidays, the Christmas stock and the
    hurricane season."""
    f = _BS_WEEK[d.weekday()] * (_BS_HOLIDAY if cal.name(d) else 1.0)
    if _BS_CHRISTMAS_STOCK[0] <= (d.month, d.day) <= _BS_CHRISTMAS_STOCK[1]:
        f *= _BS_CHRISTMAS_STOCK[2]
    if _BS_HURRICANES[0] <= (d.month, d.day) <= _BS_HURRICANES[1]:
        f *= _BS_HURRICANES[4] if port in _BS_HURRICANES[3] else _BS_HURRICANES[2]
    return f


def entries_bs_quarterly(seed: int) -> Estate:
    """Blind (forty-first round): a Bahamian customs broker's import entries per calendar quarter by port (four:
    Nassau's 1,500 an ordinary weekday at its base level of 2016, Freeport's 520, Exuma's 150 and Abaco's 90, some
    seventeen times fewer; in an order set by the seed), each quarter keyed on its first day, on the Bahamas' holidays
    (the `holidays` package's BS: New Year, Majority Rule Day, Good Friday, Easter Monday, Labour Day, Whit Monday,
    Independence Day 10 July, Emancipation Day, National Heroes Day, Christmas and Boxing Day: x0.1). A day: Saturday's
    morning x0.3, Sunday shut; the Christmas stock landed in October and November (x1.25); the hurricane season's
    worst, August to October (x0.85; the out islands, Exuma and Abaco, x0.7). In no calendar: the government's budget
    year ending in June (its last quarter, April to June, x1.2: the agencies' imports pushed before it closes); a duty
    rise on imports announced in the 2025 budget (late May) for 1 January 2026: the fourth quarter of 2025's entries
    pushed ahead of it (x1.3), the first quarter of 2026's held back (x0.8). From the third quarter of 2024 a
    shipyard's imports at Freeport (x1.4, the others unmoved; accepted by the owner as a shift). A hurricane shut the
    northern ports in the third quarter of 2019 (Abaco x0.2, Freeport x0.5; an unlabelled incident, history only). 3%
    noise per port and quarter; +4% a year. From the first quarter of 2016 (44 quarters, to the last of 2026): eight
    years read, 2024 to 2026 evaluated (12 quarters); categories "budget_year_end", "hurricanes", "christmas_stock",
    "duty_run_up", "duty_held_back", "after_shift" (the next quarter, the last of 2024); the step's own quarter is a
    hurricane season's."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="BS")
    ports = _unequal(rng, list(_BS_ENTRIES))
    series, cats, incidents = [], {}, set()
    for q in range(44):
        first = date(2016 + q // 4, 3 * (q % 4) + 1, 1)
        at = datetime(first.year, first.month, first.day)
        last = date(first.year + (first.month == 10), (first.month + 2) % 12 + 1, 1) - timedelta(days=1)
        days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
        lift = 1.04 ** ((first - date(2016, 1, 1)).days / 365.25)
        lift *= _BS_BUDGET_END[1] if first.month == _BS_BUDGET_END[0] else 1.0
        lift *= _BS_DUTY[1] if first == _BS_DUTY[0] else _BS_DUTY[3] if first == _BS_DUTY[2] else 1.0
        values = []
        for p in ports:
            f = sum(_bs_day(d, p, cal) for d in days) * lift
            f *= _BS_SHIPYARD[2] if p == _BS_SHIPYARD[1] and first >= _BS_SHIPYARD[0] else 1.0
            f *= _BS_HURRICANE[1].get(p, 1.0) if first == _BS_HURRICANE[0] else 1.0
            values.append(_noisy(rng, _BS_ENTRIES[p] * f, 0.03))
        series.append((at, values))
        kind = _bs_quarter_kind(first)
        if first == _BS_HURRICANE[0]:
            incidents.add(at)
        elif kind:
            cats[at] = kind
    shift = datetime(_BS_SHIPYARD[0].year, _BS_SHIPYARD[0].month, _BS_SHIPYARD[0].day)
    stamps = [at for at, _ in series]
    cats[stamps[stamps.index(shift) + 1]] = "after_shift"  # the next quarter (the Christmas stock's, named for the step)
    return Estate("entries_bs_quarterly", "day", series, 32, cal, cats, [shift], incidents=incidents)


ESTATES: dict[str, Callable[[int], Estate]] = {
    "gl_month_end": gl_month_end, "orders_us": orders_us, "events_hourly": events_hourly,
    "orders_de": orders_de, "sessions_jp_hourly": sessions_jp_hourly,
    "gl_month_end_noisy": lambda seed: gl_month_end(seed, noise=0.05),
    "deliveries_id": deliveries_id, "shipments_jp": shipments_jp, "signups_weekly": signups_weekly,
    "shipments_cn": shipments_cn, "orders_br": orders_br, "events_dst_hourly": events_dst_hourly,
    "orders_in": orders_in, "payroll_uk_monthly": payroll_uk_monthly, "tickets_weekend": tickets_weekend,
    "checkouts_sydney_hourly": checkouts_sydney_hourly, "loads_la_hourly": loads_la_hourly,
    "logins_berlin_hourly": logins_berlin_hourly, "tickets_kolkata_hourly": tickets_kolkata_hourly,
    "orders_sa": orders_sa, "sales_445_monthly": sales_445_monthly, "bookings_gb_weekly": bookings_gb_weekly,
    "journals_au": journals_au, "orders_fr": orders_fr, "bookings_nl": bookings_nl,
    "subscriptions_ca": subscriptions_ca, "payments_gb_il": payments_gb_il,
    "telemetry_chicago_hourly": telemetry_chicago_hourly, "invoices_it_monthly": invoices_it_monthly,
    "claims_de_weekly": claims_de_weekly, "refunds_se": refunds_se, "sellers_pl": sellers_pl,
    "rides_us": rides_us, "orders_eg": orders_eg, "orders_vn": orders_vn,
    "returns_kr": returns_kr, "journals_sa": journals_sa, "settlements_ca": settlements_ca,
    "payouts_us": payouts_us, "sales_au": sales_au, "streams_gb": streams_gb, "trips_mx_hourly": trips_mx_hourly,
    "payroll_ca_biweekly": payroll_ca_biweekly, "carnival_br": carnival_br, "migration_nl": migration_nl,
    "tickets_nz_weekly": tickets_nz_weekly, "calls_us_hourly": calls_us_hourly,
    "ledger_nz_monthly": ledger_nz_monthly, "orders_cairo": orders_cairo, "rentals_es": rentals_es,
    "deliveries_adelaide_hourly": deliveries_adelaide_hourly, "lessons_nl_weekly": lessons_nl_weekly,
    "filings_gb": filings_gb, "transfers_jp": transfers_jp,
    "registrations_kathmandu_hourly": registrations_kathmandu_hourly, "takings_gb_fourweekly": takings_gb_fourweekly,
    "grocer_toronto": grocer_toronto, "usage_sg": usage_sg,
    "helpline_santiago_hourly": helpline_santiago_hourly, "groceries_il_weekly": groceries_il_weekly,
    "contracts_ie": contracts_ie, "bakeries_pt": bakeries_pt,
    "payments_lord_howe_hourly": payments_lord_howe_hourly, "payments_ke_monthly": payments_ke_monthly,
    "outages_gr": outages_gr, "canteens_br": canteens_br,
    "orders_hk_hourly": orders_hk_hourly, "admissions_ar": admissions_ar, "reads_za": reads_za,
    "loans_fi_weekly": loans_fi_weekly, "taps_bangkok_hourly": taps_bangkok_hourly, "donations_tr": donations_tr,
    "appointments_no_weekly": appointments_no_weekly, "checkins_co_pe": checkins_co_pe,
    "remittances_manila_hourly": remittances_manila_hourly, "diy_pl": diy_pl,
    "screenings_us_weekly": screenings_us_weekly, "ferries_es_ma": ferries_es_ma,
    "bars_prague_hourly": bars_prague_hourly, "pharmacies_at": pharmacies_at, "cinemas_dk_weekly": cinemas_dk_weekly,
    "microloans_pk_bd_monthly": microloans_pk_bd_monthly,
    "lifts_graubuenden_hourly": lifts_graubuenden_hourly, "moves_tw": moves_tw, "lotto_be_weekly": lotto_be_weekly,
    "activations_ro_hu_monthly": activations_ro_hu_monthly,
    "tolls_hr_hourly": tolls_hr_hourly, "inspections_sk": inspections_sk, "coupons_us_weekly": coupons_us_weekly,
    "lockers_lt_lv_ee": lockers_lt_lv_ee,
    "parking_stjohns_hourly": parking_stjohns_hourly, "museums_si": museums_si,
    "milk_uy_semimonthly": milk_uy_semimonthly, "laundries_my": laundries_my,
    "fuel_tehran_hourly": fuel_tehran_hourly, "withdrawals_rs": withdrawals_rs, "pools_is_weekly": pools_is_weekly,
    "cement_kz_uz_dekadal": cement_kz_uz_dekadal,
    "topups_tonga_hourly": topups_tonga_hourly, "pos_ng": pos_ng, "beer_et_monthly": beer_et_monthly,
    "nights_fj_quarterly": nights_fj_quarterly,
    "rides_amman_hourly": rides_amman_hourly, "flowers_bg": flowers_bg,
    "coops_kw_hijri_monthly": coops_kw_hijri_monthly, "cocoa_gh_weekly": cocoa_gh_weekly,
    "liquor_colombo_hourly": liquor_colombo_hourly, "parcels_ae": parcels_ae, "gas_ge_monthly": gas_ge_monthly,
    "groceries_mu_weekly": groceries_mu_weekly,
    "library_ulaanbaatar_hourly": library_ulaanbaatar_hourly, "stationers_ec": stationers_ec,
    "stores_pg_fortnightly": stores_pg_fortnightly, "icecream_al_weekly": icecream_al_weekly,
    "emergencies_lapaz_hourly": emergencies_lapaz_hourly, "hairdressers_lu": hairdressers_lu,
    "water_tn_thirtyday": water_tn_thirtyday, "lodges_mz_weekly": lodges_mz_weekly,
    "metro_doha_hourly": metro_doha_hourly, "rides_kh": rides_kh, "maize_zm_weekly": maize_zm_weekly,
    "airtime_af_monthly": airtime_af_monthly,
    "mobile_data_iq_hourly": mobile_data_iq_hourly, "cashouts_tz": cashouts_tz,
    "supermarkets_pa_weekly": supermarkets_pa_weekly, "produce_do": produce_do,
    "buses_kigali_hourly": buses_kigali_hourly, "coaches_sn": coaches_sn, "remesas_gt": remesas_gt,
    "hotels_om_weekly": hotels_om_weekly,
    "ferries_valletta_hourly": ferries_valletta_hourly, "agents_mw": agents_mw, "renewals_jm": renewals_jm,
    "milk_dz_weekly": milk_dz_weekly,
    "pharmacies_tegucigalpa_hourly": pharmacies_tegucigalpa_hourly, "departments_cy": departments_cy,
    "stores_tt": stores_tt, "billing_cr_monthly": billing_cr_monthly,
    "metro_yerevan_hourly": metro_yerevan_hourly, "receipts_bw": receipts_bw, "parcels_mg": parcels_mg,
    "coffee_ni_weekly": coffee_ni_weekly,
    "kiosks_chisinau_hourly": kiosks_chisinau_hourly, "crossings_bh": crossings_bh, "forecourts_na": forecourts_na,
    "coop_py_monthly": coop_py_monthly,
    "shops_havana_hourly": shops_havana_hourly, "deliveries_bn": deliveries_bn, "sweets_az": sweets_az,
    "hardware_gy_monthly": hardware_gy_monthly,
    "boda_kampala_hourly": boda_kampala_hourly, "drinks_sv": drinks_sv, "parcels_cm": parcels_cm,
    "furniture_ba_weekly": furniture_ba_weekly,
    "wallet_yangon_hourly": wallet_yangon_hourly, "cards_me": cards_me, "cashins_ci": cashins_ci,
    "groceries_ve_semimonthly": groceries_ve_semimonthly,
    "deliveries_beirut_hourly": deliveries_beirut_hourly, "remittances_tj": remittances_tj,
    "appliances_sr": appliances_sr, "water_bf_dekadal": water_bf_dekadal,
    "scooters_bishkek_hourly": scooters_bishkek_hourly, "payments_zw": payments_zw, "bakery_bb": bakery_bb,
    "materials_la_quarterly": materials_la_quarterly,
    "taxis_skopje_hourly": taxis_skopje_hourly, "groceries_ru": groceries_ru, "supermarkets_ao": supermarkets_ao,
    "entries_bs_quarterly": entries_bs_quarterly,
}
# held out: written before the model's second round of fixes and never run before the final run.
# orders_de, and then deliveries_id, shipments_jp and signups_weekly (held out in the first round),
# were read to fix the model; sessions_jp_hourly and gl_month_end_noisy were run, never read to fix it
# shipments_cn, orders_br and events_dst_hourly were held out until the second round's final run; their
# false alarms were read for the third. orders_in, payroll_uk_monthly and tickets_weekend were written
# before the third round changed the model and first run in its final run.
HELD_OUT = {"orders_in", "payroll_uk_monthly", "tickets_weekend"}
# the time-zone round (issue 16, hourly): written before the model learned time zones, first run in
# its final run (events_dst_hourly's false alarms, by then, had been read)
HELD_OUT |= {"checkouts_sydney_hourly", "loads_la_hourly"}
# the hourly round (issue 16: a holiday's effect by hour, neighbourhoods on hourly series): written
# before the model changed and first run in its final run. loads_la_hourly's false alarms (the
# time-zone round's) were read for this round, so it is no longer held out
HELD_OUT = (HELD_OUT - {"loads_la_hourly"}) | {"logins_berlin_hourly", "tickets_kolkata_hourly"}
# the fourth round (issue 16, daily/weekly/monthly): written before that round changed the model, first run
# in its final run; the third round's held-out estates' misses were read for it, so they are no longer held out
HELD_OUT = ((HELD_OUT - {"orders_in", "payroll_uk_monthly", "tickets_weekend"})
            | {"orders_sa", "sales_445_monthly", "bookings_gb_weekly"})
# the fifth round: written blind by someone who had not read the model, first run on the model as it
# stood (3c3a7a2)
HELD_OUT |= {"journals_au", "orders_fr", "bookings_nl", "subscriptions_ca", "payments_gb_il",
             "telemetry_chicago_hourly", "invoices_it_monthly", "claims_de_weekly", "refunds_se", "sellers_pl",
             "rides_us"}
# the hourly remainder (issue 16): logins_berlin_hourly's and tickets_kolkata_hourly's false alarms and
# missed faults were read for it, so they are no longer held out
HELD_OUT -= {"logins_berlin_hourly", "tickets_kolkata_hourly"}
# the sixth round (issue 16): the fifth round's report (its first run, on 3c3a7a2, is the held-out result
# in the README) and bookings_gb_weekly's false alarms were read for it, so they are no longer held out
HELD_OUT -= {"journals_au", "orders_fr", "bookings_nl", "subscriptions_ca", "payments_gb_il",
             "telemetry_chicago_hourly", "invoices_it_monthly", "claims_de_weekly", "refunds_se", "sellers_pl",
             "rides_us", "bookings_gb_weekly"}
# the seventh round ran orders_sa once on its merged model (held out) and read its false alarms: an
# Eid listed with a gap was counted as two (a bug, fixed); it is no longer held out
HELD_OUT -= {"orders_sa"}
# the eighth round: written blind (the bench's helpers and categories, not the model's internals) and
# never run on the model before the round's final run, on its merged model
HELD_OUT |= {"returns_kr", "journals_sa", "settlements_ca"}
# the ninth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run. The eighth round's
# false alarms (returns_kr, journals_sa, settlements_ca) were read for this round, so they are no longer
# held out
HELD_OUT = (HELD_OUT - {"returns_kr", "journals_sa", "settlements_ca"}) | {"payouts_us", "sales_au", "streams_gb",
                                                                        "trips_mx_hourly"}
# the tenth round: trips_mx_hourly's false alarms (Revolution Day's eve, two ordinary hours) were read for
# it, so it is no longer held out
HELD_OUT -= {"trips_mx_hourly"}
# the tenth round: written blind (the bench's helpers and categories, not the model's internals), each with its
# own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"payroll_ca_biweekly", "carnival_br", "migration_nl", "tickets_nz_weekly"}
# the tenth round (the days around a payday): payouts_us's false alarms (the business day
# before each payday, files sent early) were read for it, so it is no longer held out
HELD_OUT -= {"payouts_us"}
# the tenth round: streams_gb's false alarms (all in its unaccepted ramp) were read for it, so it is no
# longer held out
HELD_OUT -= {"streams_gb"}
# the tenth round: sales_au's false alarms (the ninth round's final run) were read for it, so it is no
# longer held out
HELD_OUT -= {"sales_au"}
# the eleventh round: the tenth round's held-out first run (payroll_ca_biweekly, carnival_br, migration_nl,
# tickets_nz_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"payroll_ca_biweekly", "carnival_br", "migration_nl", "tickets_nz_weekly"}
# the eleventh round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"calls_us_hourly", "ledger_nz_monthly", "orders_cairo", "rentals_es"}
# the twelfth round: the eleventh round's held-out first run (calls_us_hourly, ledger_nz_monthly, orders_cairo,
# rentals_es, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"calls_us_hourly", "ledger_nz_monthly", "orders_cairo", "rentals_es"}
# the twelfth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"deliveries_adelaide_hourly", "lessons_nl_weekly", "filings_gb", "transfers_jp"}
# the thirteenth round: the twelfth round's held-out first run (deliveries_adelaide_hourly, lessons_nl_weekly,
# filings_gb, transfers_jp, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"deliveries_adelaide_hourly", "lessons_nl_weekly", "filings_gb", "transfers_jp"}
# the thirteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"registrations_kathmandu_hourly", "takings_gb_fourweekly", "grocer_toronto", "usage_sg"}
# the fourteenth round: the thirteenth round's held-out first run (registrations_kathmandu_hourly,
# takings_gb_fourweekly, grocer_toronto, usage_sg, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"registrations_kathmandu_hourly", "takings_gb_fourweekly", "grocer_toronto", "usage_sg"}
# the fourteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"helpline_santiago_hourly", "groceries_il_weekly", "contracts_ie", "bakeries_pt"}
# the fifteenth round: the fourteenth round's held-out first run (helpline_santiago_hourly, groceries_il_weekly,
# contracts_ie, bakeries_pt, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"helpline_santiago_hourly", "groceries_il_weekly", "contracts_ie", "bakeries_pt"}
# the fifteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"payments_lord_howe_hourly", "payments_ke_monthly", "outages_gr", "canteens_br"}
# the sixteenth round: the fifteenth round's held-out first run (payments_lord_howe_hourly, payments_ke_monthly,
# outages_gr, canteens_br, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"payments_lord_howe_hourly", "payments_ke_monthly", "outages_gr", "canteens_br"}
# the sixteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"orders_hk_hourly", "admissions_ar", "reads_za", "loans_fi_weekly"}
# the seventeenth round: the sixteenth round's held-out first run (orders_hk_hourly, admissions_ar, reads_za,
# loans_fi_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"orders_hk_hourly", "admissions_ar", "reads_za", "loans_fi_weekly"}
# the seventeenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"taps_bangkok_hourly", "donations_tr", "appointments_no_weekly", "checkins_co_pe"}
# the eighteenth round: the seventeenth round's held-out first run (taps_bangkok_hourly, donations_tr,
# appointments_no_weekly, checkins_co_pe, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"taps_bangkok_hourly", "donations_tr", "appointments_no_weekly", "checkins_co_pe"}
# the eighteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"remittances_manila_hourly", "diy_pl", "screenings_us_weekly", "ferries_es_ma"}
# the nineteenth round: the eighteenth round's held-out first run (remittances_manila_hourly, diy_pl,
# screenings_us_weekly, ferries_es_ma, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"remittances_manila_hourly", "diy_pl", "screenings_us_weekly", "ferries_es_ma"}
# the nineteenth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"bars_prague_hourly", "pharmacies_at", "cinemas_dk_weekly", "microloans_pk_bd_monthly"}
# the twentieth round: the nineteenth round's held-out first run (bars_prague_hourly, pharmacies_at,
# cinemas_dk_weekly, microloans_pk_bd_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"bars_prague_hourly", "pharmacies_at", "cinemas_dk_weekly", "microloans_pk_bd_monthly"}
# the twentieth round: written blind (the bench's helpers and categories, not the model's internals), each with its
# own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"lifts_graubuenden_hourly", "moves_tw", "lotto_be_weekly", "activations_ro_hu_monthly"}
# the twenty-first round: the twentieth round's held-out first run (lifts_graubuenden_hourly, moves_tw,
# lotto_be_weekly, activations_ro_hu_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"lifts_graubuenden_hourly", "moves_tw", "lotto_be_weekly", "activations_ro_hu_monthly"}
# the twenty-first round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"tolls_hr_hourly", "inspections_sk", "coupons_us_weekly", "lockers_lt_lv_ee"}
# the twenty-second round: the twenty-first round's held-out first run (tolls_hr_hourly, inspections_sk,
# coupons_us_weekly, lockers_lt_lv_ee, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"tolls_hr_hourly", "inspections_sk", "coupons_us_weekly", "lockers_lt_lv_ee"}
# the twenty-second round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"parking_stjohns_hourly", "museums_si", "milk_uy_semimonthly", "laundries_my"}
# the twenty-third round: the twenty-second round's held-out first run (parking_stjohns_hourly, museums_si,
# milk_uy_semimonthly, laundries_my, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"parking_stjohns_hourly", "museums_si", "milk_uy_semimonthly", "laundries_my"}
# the twenty-third round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"fuel_tehran_hourly", "withdrawals_rs", "pools_is_weekly", "cement_kz_uz_dekadal"}
# the twenty-fourth round: the twenty-third round's held-out first run (fuel_tehran_hourly, withdrawals_rs,
# pools_is_weekly, cement_kz_uz_dekadal, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"fuel_tehran_hourly", "withdrawals_rs", "pools_is_weekly", "cement_kz_uz_dekadal"}
# the twenty-fourth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"topups_tonga_hourly", "pos_ng", "beer_et_monthly", "nights_fj_quarterly"}
# the twenty-fifth round: the twenty-fourth round's held-out first run (topups_tonga_hourly, pos_ng,
# beer_et_monthly, nights_fj_quarterly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"topups_tonga_hourly", "pos_ng", "beer_et_monthly", "nights_fj_quarterly"}
# the twenty-fifth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"rides_amman_hourly", "flowers_bg", "coops_kw_hijri_monthly", "cocoa_gh_weekly"}
# the twenty-sixth round: the twenty-fifth round's held-out first run (rides_amman_hourly, flowers_bg,
# coops_kw_hijri_monthly, cocoa_gh_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"rides_amman_hourly", "flowers_bg", "coops_kw_hijri_monthly", "cocoa_gh_weekly"}
# the twenty-sixth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"liquor_colombo_hourly", "parcels_ae", "gas_ge_monthly", "groceries_mu_weekly"}
# the twenty-seventh round: the twenty-sixth round's held-out first run (liquor_colombo_hourly, parcels_ae,
# gas_ge_monthly, groceries_mu_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"liquor_colombo_hourly", "parcels_ae", "gas_ge_monthly", "groceries_mu_weekly"}
# the twenty-seventh round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"library_ulaanbaatar_hourly", "stationers_ec", "stores_pg_fortnightly", "icecream_al_weekly"}
# the twenty-eighth round: the twenty-seventh round's held-out first run (library_ulaanbaatar_hourly,
# stores_pg_fortnightly, icecream_al_weekly on its merged model; stationers_ec on the same model as this round's first
# step) was read for it, so they are no longer held out
HELD_OUT -= {"library_ulaanbaatar_hourly", "stationers_ec", "stores_pg_fortnightly", "icecream_al_weekly"}
# the twenty-eighth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"emergencies_lapaz_hourly", "hairdressers_lu", "water_tn_thirtyday", "lodges_mz_weekly"}
# the twenty-ninth round: the twenty-eighth round's held-out first run (emergencies_lapaz_hourly, hairdressers_lu,
# water_tn_thirtyday, lodges_mz_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"emergencies_lapaz_hourly", "hairdressers_lu", "water_tn_thirtyday", "lodges_mz_weekly"}
# the twenty-ninth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"metro_doha_hourly", "rides_kh", "maize_zm_weekly", "airtime_af_monthly"}
# the thirtieth round: the twenty-ninth round's held-out first run (metro_doha_hourly, rides_kh, maize_zm_weekly,
# airtime_af_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"metro_doha_hourly", "rides_kh", "maize_zm_weekly", "airtime_af_monthly"}
# the thirtieth round: written blind (the bench's helpers and categories, not the model's internals), each with
# its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"mobile_data_iq_hourly", "cashouts_tz", "supermarkets_pa_weekly", "produce_do"}
# the thirty-first round: the thirtieth round's held-out first run (mobile_data_iq_hourly, cashouts_tz,
# supermarkets_pa_weekly, produce_do, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"mobile_data_iq_hourly", "cashouts_tz", "supermarkets_pa_weekly", "produce_do"}
# the thirty-first round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"buses_kigali_hourly", "coaches_sn", "remesas_gt", "hotels_om_weekly"}
# the thirty-second round: the thirty-first round's held-out first run (buses_kigali_hourly, coaches_sn, remesas_gt,
# hotels_om_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"buses_kigali_hourly", "coaches_sn", "remesas_gt", "hotels_om_weekly"}
# the thirty-second round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"ferries_valletta_hourly", "agents_mw", "renewals_jm", "milk_dz_weekly"}
# the thirty-third round: the thirty-second round's held-out first run (ferries_valletta_hourly, agents_mw,
# renewals_jm, milk_dz_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"ferries_valletta_hourly", "agents_mw", "renewals_jm", "milk_dz_weekly"}
# the thirty-third round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"pharmacies_tegucigalpa_hourly", "departments_cy", "stores_tt", "billing_cr_monthly"}
# the thirty-fourth round: the thirty-third round's held-out first run (pharmacies_tegucigalpa_hourly,
# departments_cy, stores_tt, billing_cr_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"pharmacies_tegucigalpa_hourly", "departments_cy", "stores_tt", "billing_cr_monthly"}
# the thirty-fourth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"metro_yerevan_hourly", "receipts_bw", "parcels_mg", "coffee_ni_weekly"}
# the thirty-fifth round: the thirty-fourth round's held-out first run (metro_yerevan_hourly, receipts_bw,
# parcels_mg, coffee_ni_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"metro_yerevan_hourly", "receipts_bw", "parcels_mg", "coffee_ni_weekly"}
# the thirty-fifth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"kiosks_chisinau_hourly", "crossings_bh", "forecourts_na", "coop_py_monthly"}
# the thirty-sixth round: the thirty-fifth round's held-out first run (kiosks_chisinau_hourly, crossings_bh,
# forecourts_na, coop_py_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"kiosks_chisinau_hourly", "crossings_bh", "forecourts_na", "coop_py_monthly"}
# the thirty-sixth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"shops_havana_hourly", "deliveries_bn", "sweets_az", "hardware_gy_monthly"}
# the thirty-seventh round: the thirty-sixth round's held-out first run (shops_havana_hourly, deliveries_bn,
# sweets_az, hardware_gy_monthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"shops_havana_hourly", "deliveries_bn", "sweets_az", "hardware_gy_monthly"}
# the thirty-seventh round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"boda_kampala_hourly", "drinks_sv", "parcels_cm", "furniture_ba_weekly"}
# the thirty-eighth round: the thirty-seventh round's held-out first run (boda_kampala_hourly, drinks_sv, parcels_cm,
# furniture_ba_weekly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"boda_kampala_hourly", "drinks_sv", "parcels_cm", "furniture_ba_weekly"}
# the thirty-eighth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"wallet_yangon_hourly", "cards_me", "cashins_ci", "groceries_ve_semimonthly"}
# the thirty-ninth round: the thirty-eighth round's held-out first run (wallet_yangon_hourly, cards_me, cashins_ci,
# groceries_ve_semimonthly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"wallet_yangon_hourly", "cards_me", "cashins_ci", "groceries_ve_semimonthly"}
# the thirty-ninth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"deliveries_beirut_hourly", "remittances_tj", "appliances_sr", "water_bf_dekadal"}
# the fortieth round: the thirty-ninth round's held-out first run (deliveries_beirut_hourly, remittances_tj,
# appliances_sr, water_bf_dekadal, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"deliveries_beirut_hourly", "remittances_tj", "appliances_sr", "water_bf_dekadal"}
# the fortieth round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"scooters_bishkek_hourly", "payments_zw", "bakery_bb", "materials_la_quarterly"}
# the forty-first round: the fortieth round's held-out first run (scooters_bishkek_hourly, payments_zw, bakery_bb,
# materials_la_quarterly, on its merged model) was read for it, so they are no longer held out
HELD_OUT -= {"scooters_bishkek_hourly", "payments_zw", "bakery_bb", "materials_la_quarterly"}
# the forty-first round: written blind (the bench's helpers and categories, not the model's internals), each
# with its own number of groups, and never run on the model before the round's final run
HELD_OUT |= {"taxis_skopje_hourly", "groceries_ru", "supermarkets_ao", "entries_bs_quarterly"}


def faulted(rng: random.Random, groups: list[float]) -> dict[str, list[float]]:
    out = {f"drop_{int(d * 100)}": [round(v * (1 - d)) for v in groups] for d in DROPS}
    out["empty"] = [0.0] * len(groups)
    out["duplicated"] = [v * 2 for v in groups]
    missing = rng.randrange(len(groups))
    # a group that had no rows going missing leaves the partition as it was (a market closed on its own
    # calendar's holiday): the fault is the next group that had rows (one draw either way, so every
    # estate's stream of faults is the same)
    missing = next((j % len(groups) for j in range(missing, missing + len(groups)) if groups[j % len(groups)] > 0),
                   missing)
    out["missing_group"] = [0.0 if i == missing else v for i, v in enumerate(groups)]
    late = rng.uniform(0, 0.3)
    out["late"] = [round(v * late) for v in groups]
    return out


def zscore(history: list[tuple[datetime, float]], target: datetime, observed: float, seasonal: str | None) -> bool:
    """Elementary-style: the 14 previous points (of the same weekday / hour when seasonal), |z| > 3."""
    if seasonal == "weekday":
        pts = [v for at, v in history if at.weekday() == target.weekday()]
    elif seasonal == "hour":
        pts = [v for at, v in history if at.hour == target.hour]
    else:
        pts = [v for _, v in history]
    pts = pts[-14:]
    if len(pts) < 3:
        return False
    sd = statistics.stdev(pts)
    return abs(observed - statistics.fmean(pts)) > 3 * sd if sd else observed != pts[-1]


@dataclass
class Tally:
    hits: dict[str, list[int]] = field(default_factory=dict)
    clean: dict[str, list[int]] = field(default_factory=dict)
    false_alarms: list[str] = field(default_factory=list)  # why each clean partition was flagged
    missed: list[str] = field(default_factory=list)  # faults a target of 0.95 or more says must fail, passed

    def add_fault(self, fault: str, flagged: bool) -> None:
        slot = self.hits.setdefault(fault, [0, 0])
        slot[0] += flagged
        slot[1] += 1

    def add_clean(self, category: str, flagged: bool) -> None:
        slot = self.clean.setdefault(category, [0, 0])
        slot[0] += flagged
        slot[1] += 1

    def recall(self, fault: str) -> float:
        hit, n = self.hits.get(fault, (0, 0))
        return hit / n if n else float("nan")

    def far(self) -> float:
        flagged, total = self.counted()
        return flagged / total if total else float("nan")

    def counted(self) -> tuple[int, int]:
        """(false alarms, clean partitions), without the expected alarms (a shift's first partition)."""
        kept = [v for k, v in self.clean.items() if k not in EXPECTED]
        return sum(v[0] for v in kept), sum(v[1] for v in kept)


def _owned(at: datetime, value: float, shifts: set[datetime], shapes: set[datetime]) -> Point:
    """A history point with what the simulated owner accepted of it (a new level, a new weekly pattern)."""
    return Point(at, value, accepted=at in shifts or at in shapes, shift=at in shifts, shape=at in shapes)


def accepted_before_window(estate: Estate) -> set[datetime]:
    """The shape changes the owner accepted in the history, before the evaluated window (no flag of the
    window's is theirs to accept): each marked on the change's first partition, as the estates that
    declare one say (`bakeries_pt`, `parcels_ae`: "the owner accepted the shape change then")."""
    window = estate.series[estate.evaluate_from][0]
    return {min(a for a, _ in estate.series if a >= s) for s in estate.shape_at if s < window}


def run_estate(estate: Estate, params: ModelParams, stride: int = 1) -> dict[str, Tally]:
    tallies = {"ours": Tally(), "z_plain": Tally(), "z_seasonal": Tally()}
    seasonal = "hour" if estate.grain == "hour" else None if _monthly(estate) else "weekday"
    rng = random.Random(zlib.crc32(estate.name.encode()))
    accepted_shift: set[datetime] = set()
    accepted_shape = accepted_before_window(estate)
    # a shift's first partition is always evaluated, whatever the stride: it is where the owner acts
    # (with every second hour, a shift starting at an odd hour was never accepted and its next hour
    # counted as a false alarm the owner would have prevented)
    firsts = {i for i, (a, _) in enumerate(estate.series) if a in estate.shift_at and i >= estate.evaluate_from}
    # each estate's own number of groups (four payout products, three sales channels), not GROUPS
    n_groups = len(estate.series[0][1])
    for idx in sorted(set(range(estate.evaluate_from, len(estate.series), stride)) | firsts):
        at, groups = estate.series[idx]
        if at in estate.incidents:
            continue
        past = estate.series[max(0, idx - _lookback(estate)):idx]
        total_hist = [_owned(a, sum(g), accepted_shift, accepted_shape) for a, g in past]
        group_hist = [[_owned(a, g[i], accepted_shift, accepted_shape) for a, g in past] for i in range(n_groups)]
        calendars = [estate.calendar] + [estate.calendar_of(i) for i in range(n_groups)]
        owned = [False] + [i < len(estate.group_calendars) and estate.group_calendars[i] is not None
                           for i in range(n_groups)]
        fcs = [forecast(h, at, grain=estate.grain, calendar_=c, params=params, timezone=estate.timezone, own_calendar=o)
               for h, c, o in zip([total_hist, *group_hist], calendars, owned)]
        # a group re-keyed inside the history (rows stopped as new keys began), as the product's grouped check reads it
        fcs[1:] = with_retired_groups(fcs[1:], group_hist, at, params)
        own = sum(c is not None for c in estate.group_calendars)
        if reads_total_as_groups_sum(n_groups, len(fcs) - 1, own, sum(rows_on_few_weekdays(h, estate.grain)
                                                                       for h in group_hist)):
            # groups on calendars of their own: the total is read as their sum, as the product's grouped check does
            fcs[0] = total_of_groups(fcs[0], fcs[1:], params)

        def ours(values: list[float], fcs: list = fcs) -> bool:
            totals = [sum(values)] + values
            return any(not judge(fc, v).passed for fc, v in zip(fcs, totals))

        # the z-score's "same hour" is the owner's local hour too (as a configured check's would be)
        zhist = [(a, v.value) for a, v in zip(local_hours([a for a, _ in past], estate.timezone), total_hist)]
        zat = local_hours([at], estate.timezone)[0]
        clean_flag = ours(groups)
        category = "shift_first" if at in estate.shift_at else estate.categories.get(at, "ordinary")
        latest_shape = max((s for s in estate.shape_at if s <= at), default=None)
        if (clean_flag and category != "shift_first" and latest_shape is not None and at - latest_shape < SHAPE_WINDOW
                and not any(latest_shape <= a <= at for a in accepted_shape)):
            # the owner accepts the first flagged partition after the weekly pattern changed as a shape
            # change (only the first: every later flag counts)
            category = "shape_first"
            accepted_shape.add(at)
        tallies["ours"].add_clean(category, clean_flag)
        if clean_flag:
            for label, fc, value in zip(["total"] + [f"group{i}" for i in range(n_groups)], fcs, [sum(groups)] + groups):
                verdict = judge(fc, value)
                if not verdict.passed:
                    tallies["ours"].false_alarms.append(
                        f"{at:%Y-%m-%d %a %H:00} {category} {label}: ratio {verdict.ratio:.3f} band "
                        f"[{fc.lower / fc.baseline:.3f}, {fc.upper / fc.baseline:.3f}] {fc.group} ({verdict.reason}"
                        f"{', shift ' + str(fc.shift['ratio']) + ' after ' + str(fc.shift['points']) if fc.shift else ''})")
        latest_shift = max((s for s in estate.shift_at if s <= at), default=None)
        if (clean_flag and category in ("shift_first", "after_shift") and latest_shift is not None
                and not any(latest_shift <= a <= at for a in accepted_shift)):
            # the owner accepts the first flagged partition of a legitimate shift (of the latest one,
            # when two come a few weeks apart): its first one, or with --stride the first evaluated
            # one (a shift starting between two evaluated hours)
            accepted_shift.add(at)
        for key, season in (("z_plain", None), ("z_seasonal", seasonal)):
            tallies[key].add_clean(category, zscore(zhist, zat, sum(groups), season))
        for fault, values in faulted(rng, groups).items():
            caught = ours(values)
            tallies["ours"].add_fault(fault, caught)
            if not caught and TARGETS.get(fault, 0) >= 0.95:
                tallies["ours"].missed.append(_missed(at, category, fault, fcs, values))
            for key, season in (("z_plain", None), ("z_seasonal", seasonal)):
                tallies[key].add_fault(fault, zscore(zhist, zat, sum(values), season))
    return tallies


def _missed(at: datetime, category: str, fault: str, fcs: list, values: list[float]) -> str:
    """Why a fault passed: each series' ratio and band (the total and the groups)."""
    parts = []
    for label, fc, value in zip(["total"] + [f"group{i}" for i in range(len(values))], fcs, [sum(values)] + values):
        parts.append(f"{label} {value / fc.baseline:.3f} [{fc.lower / fc.baseline:.3f}, {fc.upper / fc.baseline:.3f}]")
    return f"{at:%Y-%m-%d %a %H:00} {category} {fault}: {fcs[0].group}; " + "; ".join(parts)


def run_estate_warehouse(estate: Estate, workdir: Path, stride: int = 1) -> tuple[dict[str, Tally], dict[str, float]]:
    """The product's own path for a month-end estate: real rows in a DuckDB file (one row per
    record, `count(*)` per partition and group aggregated in SQL by `dw_assets.checks.volume`), every
    partition and fault written as a view and checked by `evaluate_volume`, as `dw checks run
    --partition` does. Returns the tallies and {"rows", "checks", "seconds_per_check"}."""
    assert estate.grain == "day" and estate.name.startswith("gl_"), "the warehouse path runs month-end estates"
    path = workdir / "lake.duckdb"
    path.unlink(missing_ok=True)
    spec = ", ".join(f"(DATE '{at:%Y-%m-%d}', 'g{i}', {int(v)})" for at, groups in estate.series
                     for i, v in enumerate(groups))
    with duckdb.connect(str(path)) as con:
        con.execute(f"CREATE TABLE spec AS SELECT * FROM (VALUES {spec}) s(p, grp, n)")
        con.execute("CREATE TABLE rows_clean AS SELECT s.p, s.grp, r.rn FROM spec s, "
                    "LATERAL (SELECT unnest(range(1, s.n + 1)) AS rn) r")
        rows = con.execute("SELECT count(*) FROM rows_clean").fetchone()[0]
    warehouse = Warehouse("duckdb:///:memory:", {"lake": str(path)})
    cal = estate.calendar
    own = {f"g{i}": HolidaysConfig(country=c.country, subdiv=c.subdiv, dates=dict(c.dates))
           for i, c in enumerate(estate.group_calendars) if c is not None}
    cfg = VolumeCheckConfig(partition_column="p", group_by=["grp"], period="month_end", history=_lookback(estate),
                            fiscal_year_end=cal.fiscal_year_end, group_holidays=own,
                            holidays=HolidaysConfig(country=cal.country, subdiv=cal.subdiv, dates=dict(cal.dates))
                            if cal.country or cal.dates else None)
    tally = Tally()
    rng = random.Random(zlib.crc32(estate.name.encode()))
    checks, seconds = 0, 0.0
    for idx in range(estate.evaluate_from, len(estate.series), stride):
        at, groups = estate.series[idx]
        variants = {"clean": groups, **faulted(rng, groups)}
        with duckdb.connect(str(path)) as con:
            for fault, values in variants.items():
                # rows of the checked partition: the first k of each group's records (k over the
                # clean count: a second copy), the other partitions untouched
                keep = " OR ".join(f"(grp = 'g{i}' AND rn <= {int(min(k, v))})" for i, (k, v) in
                                   enumerate(zip(values, groups)) if k > 0) or "FALSE"
                extra = " OR ".join(f"(grp = 'g{i}' AND rn <= {int(k - v)})" for i, (k, v) in
                                    enumerate(zip(values, groups)) if k > v) or "FALSE"
                con.execute(f"CREATE OR REPLACE VIEW v_{fault} AS SELECT * FROM rows_clean WHERE p <> DATE '{at:%Y-%m-%d}' "
                            f"UNION ALL SELECT * FROM rows_clean WHERE p = DATE '{at:%Y-%m-%d}' AND ({keep}) "
                            f"UNION ALL SELECT * FROM rows_clean WHERE p = DATE '{at:%Y-%m-%d}' AND ({extra})")
        for fault in variants:
            started = time.perf_counter()
            outcome = evaluate_volume(warehouse, None, f"lake.v_{fault}", cfg, partition=f"{at:%Y-%m-%d}")
            seconds += time.perf_counter() - started
            checks += 1
            flagged = outcome.actionable
            if fault == "clean":
                tally.add_clean("shift_first" if at in estate.shift_at else estate.categories.get(at, "ordinary"), flagged)
                if flagged:
                    tally.false_alarms.append(f"{at:%Y-%m-%d} (warehouse path): {outcome.summary}")
            else:
                tally.add_fault(fault, flagged)
    path.unlink(missing_ok=True)
    return {"ours": tally}, {"rows": rows, "checks": checks, "seconds_per_check": seconds / max(checks, 1)}


# Points of history a daily series reads (the product's `lookback` default; `--daily-history` sets it, to
# compare a longer default on the same branch)
DAILY_HISTORY = [400]


def _lookback(estate: Estate) -> int:
    """Points of history, as the check's defaults read them: 28 days of hours, 36 month-ends,
    `DAILY_HISTORY` days (400 by default); three years of a weekly, fortnightly, half-monthly or ten-day series (configured `history`)."""
    if estate.grain == "hour":
        return 24 * 28
    if estate.name.endswith("_semimonthly"):  # three years of half-months (the 1st-15th, the 16th-end), as weekly
        return 72
    if estate.name.endswith("_dekadal"):  # three years of dekads (the 1st-10th, the 11th-20th, the 21st-end)
        return 108
    if estate.name.endswith("_fortnightly"):  # three years of pay fortnights (every second Thursday), as weekly
        return 78
    if estate.name.endswith("_quarterly"):  # eight years of quarters: a quarterly table's whole history is short
        return 32
    if estate.name.endswith("_thirtyday"):  # three years of thirty-day reading cycles (drifting through the months)
        return 37
    # "_weekly", not "weekly": payroll_ca_biweekly is a daily (business-day) series of biweekly pay runs
    return 36 if _monthly(estate) else 156 if estate.name.endswith("_weekly") else DAILY_HISTORY[0]


def _monthly(estate: Estate) -> bool:
    """A series of a point a quarter to three a month (quarters, month-ends, commission months, half-months, dekads,
    thirty-day cycles): the z-score's
    season is none (a half-month's or a dekad's first day falls on any weekday)."""
    return estate.name.startswith("gl_") or estate.name.endswith(("_monthly", "_semimonthly", "_dekadal", "_quarterly",
                                                                  "_thirtyday"))


def report(results: dict[str, dict[str, Tally]]) -> str:
    lines = ["| estate | method | " + " | ".join(FAULTS) + " | false alarms (clean) | by kind |",
             "|---|---|" + "--:|" * len(FAULTS) + "--:|---|"]
    for name, tallies in results.items():
        for method, t in tallies.items():
            kinds = ", ".join(f"{k}{' (expected, not counted)' if k in EXPECTED else ''} {v[0]}/{v[1]}"
                              for k, v in sorted(t.clean.items()))
            flagged, total = t.counted()
            lines.append(f"| {name} | {method} | " + " | ".join(f"{t.recall(f):.2f}" for f in FAULTS)
                         + f" | {t.far():.3f} ({flagged}/{total}) | {kinds} |")
    return "\n".join(lines)


TARGETS = {"empty": 1.0, "duplicated": 1.0, "drop_35": 0.95, "drop_50": 0.95, "drop_80": 0.95,
           "missing_group": 0.95, "drop_20": 0.8}


def misses(results: dict[str, dict[str, Tally]]) -> list[str]:
    out = []
    for name, tallies in results.items():
        ours, zs = tallies["ours"], tallies.get("z_seasonal")
        for fault, want in TARGETS.items():
            if ours.recall(fault) < want:
                out.append(f"{name}: {fault} recall {ours.recall(fault):.2f} < {want}")
        if ours.far() > 0.01:
            out.append(f"{name}: false alarms {ours.far():.3f} > 0.01")
        if zs is None:  # the warehouse path's rows: the z-scores run on the in-memory rows
            continue
        mean_ours = statistics.fmean(ours.recall(f) for f in FAULTS)
        mean_z = statistics.fmean(zs.recall(f) for f in FAULTS)
        if mean_ours <= mean_z or ours.far() > zs.far():
            out.append(f"{name}: not ahead of the seasonal z-score ({mean_ours:.2f} vs {mean_z:.2f}, "
                       f"false alarms {ours.far():.3f} vs {zs.far():.3f})")
    return out


def merge(tallies: list[dict[str, Tally]]) -> dict[str, Tally]:
    """One estate's tallies summed over its seeds."""
    out: dict[str, Tally] = {}
    for t in tallies:
        for method, tally in t.items():
            into = out.setdefault(method, Tally())
            for src, dst in ((tally.hits, into.hits), (tally.clean, into.clean)):
                for key, (hit, n) in src.items():
                    slot = dst.setdefault(key, [0, 0])
                    slot[0] += hit
                    slot[1] += n
            into.false_alarms += tally.false_alarms
            into.missed += tally.missed
    return out


def _run_one(job: tuple[str, int, ModelParams, int, bool]) -> tuple[str, int, dict[str, Tally], dict[str, float]]:
    name, seed, params, stride, warehouse = job
    estate = ESTATES[name](seed)
    if warehouse:
        with tempfile.TemporaryDirectory(prefix="dw-detection-") as tmp:
            tallies, info = run_estate_warehouse(estate, Path(tmp), stride)
        return name, seed, tallies, info
    return name, seed, run_estate(estate, params, stride), {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--estates", default=",".join(ESTATES))
    ap.add_argument("--warehouse", default="gl_month_end",
                    help="estate(s) also run through the product's warehouse path on the first seed ('' for none)")
    ap.add_argument("--quick", action="store_true", help="seed 1 only, every third partition: a smoke run")
    ap.add_argument("--stride", type=int, default=1, help="evaluate every n-th partition (more seeds in less time)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--k", type=float, default=ModelParams.k,
                    help="the band's half-width in sds (a sensitivity run; the product's default otherwise)")
    ap.add_argument("--daily-history", type=int, default=DAILY_HISTORY[0],
                    help="days of history a daily series reads (the product's default otherwise)")
    args = ap.parse_args()
    DAILY_HISTORY[0] = args.daily_history  # set before the pool forks, so every worker reads it
    params = ModelParams(k=args.k)
    seeds = [1] if args.quick else [int(s) for s in args.seeds.split(",")]
    stride = 3 if args.quick else args.stride
    names = args.estates.split(",")
    unknown = [n for n in names + [w for w in args.warehouse.split(",") if w] if n not in ESTATES]
    if unknown:
        ap.error(f"unknown estate(s) {unknown}: use {', '.join(ESTATES)}")
    started = time.monotonic()
    jobs = [(w, seeds[0], params, stride, True) for w in args.warehouse.split(",") if w]
    jobs += [(name, seed, params, stride, False) for name in names for seed in seeds]
    per_seed: dict[str, dict[int, dict[str, Tally]]] = {}
    with multiprocessing.Pool(args.processes) as pool:
        for name, seed, tallies, info in pool.imap_unordered(_run_one, jobs):
            key = f"{name} (warehouse path)" if info else name
            per_seed.setdefault(key, {})[seed] = tallies
            label = f"{key} (seed {seed})"
            extra = (f", {info['rows']:,} rows, {info['checks']} checks, {info['seconds_per_check']:.2f}s per check"
                     if info else "")
            print(f"{label}: done at {time.monotonic() - started:.0f}s{extra}", file=sys.stderr)
            print(report({label: tallies}).split("\n", 2)[2], file=sys.stderr, flush=True)  # rows as they finish
            for line in tallies["ours"].false_alarms:
                print(f"  false alarm: {line}", file=sys.stderr, flush=True)
            for line in tallies["ours"].missed:
                print(f"  missed: {line}", file=sys.stderr, flush=True)
    results = {}
    for key in sorted(per_seed, key=lambda k: (k.split(" ")[0] in HELD_OUT, k)):
        seeds_run = sorted(per_seed[key])
        held = key.split(" ")[0] in HELD_OUT
        label = f"{key} (seed{'s' if len(seeds_run) > 1 else ''} {','.join(map(str, seeds_run))}{', held out' if held else ''})"
        results[label] = merge([per_seed[key][s] for s in seeds_run])
    print(report(results))
    print(f"\nrun time {time.monotonic() - started:.0f}s, {args.processes} processes"
          + (", quick (every third partition, seed 1)" if args.quick else
             f", every {stride}th partition" if stride > 1 else ""))
    problems = misses(results)
    print("\ntargets: " + ("all met" if not problems else "MISSED:\n  " + "\n  ".join(problems)))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {key: {str(seed): {m: {"recall": {f: t.recall(f) for f in FAULTS}, "false_alarm": t.far(),
                                   "false_alarms": t.false_alarms} for m, t in tallies.items()}
                   for seed, tallies in by_seed.items()} for key, by_seed in per_seed.items()}, indent=2))
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
