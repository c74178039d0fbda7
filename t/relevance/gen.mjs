#!/usr/bin/env node
// Synthetic x402 Bazaar-style catalog for the relevance benchmark.
//
//   node t/relevance/gen.mjs [--count N] [--seed S]      (defaults 10000, 1)
//
// Writes TSV to stdout, one listing per line, no header:
//   id <TAB> category <TAB> method <TAB> url <TAB> service_name <TAB> description
//
// Deterministic: the same count and seed always give the same bytes.  Every
// category gets a quota (weights drawn from the seed, between 0.6 and 1.5),
// about 10% of the listings are generic/noise in category "noise", and the
// listings are shuffled before ids are assigned.  No dependencies, no network.
//
// Template language used in the tables below:
//   {a|b|c}      pick one alternative (may be empty: {a|}), may nest
//   [pool]       pick from a named pool: city region lang chain fmt ms price brand
//   [n:A-B]      an integer between A and B (large ones get thousands separators)

'use strict';

// ---------- arguments ----------
let count = 10000, seed = 1;
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--count') count = parseInt(a[++i], 10);
    else if (a[i] === '--seed') seed = parseInt(a[++i], 10);
    else if (a[i].startsWith('--count=')) count = parseInt(a[i].slice(8), 10);
    else if (a[i].startsWith('--seed=')) seed = parseInt(a[i].slice(7), 10);
    else { process.stderr.write(`usage: gen.mjs [--count N] [--seed S]\n`); process.exit(2); }
  }
  if (!Number.isFinite(count) || count < 1 || !Number.isFinite(seed)) {
    process.stderr.write('gen.mjs: bad --count or --seed\n'); process.exit(2);
  }
}

// ---------- PRNG ----------
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(seed >>> 0);
const int = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
const chance = (p) => rnd() < p;
function shuffle(arr) {
  for (let i = arr.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [arr[i], arr[j]] = [arr[j], arr[i]]; }
  return arr;
}

// ---------- shared pools ----------
const POOLS = {
  city: ['London', 'Paris', 'Berlin', 'Madrid', 'Toronto', 'Sydney', 'Mumbai', 'Sao Paulo', 'Mexico City',
    'Seoul', 'Chicago', 'Cape Town', 'Jakarta', 'Istanbul', 'Buenos Aires', 'Warsaw', 'Dubai', 'Singapore',
    'Austin', 'Manila', 'Lagos', 'Vienna', 'Denver', 'Osaka'],
  region: ['the US', 'the EU', 'the UK', 'Canada', 'Brazil', 'India', 'Australia', 'Germany', 'Mexico',
    'South Africa', 'Nigeria', 'Indonesia', 'Latin America', 'Southeast Asia', 'the Nordics', 'Europe'],
  lang: ['English', 'Spanish', 'French', 'German', 'Japanese', 'Portuguese', 'Arabic', 'Hindi', 'Chinese',
    'Italian', 'Turkish', 'Polish', 'Swahili', 'Vietnamese', 'Ukrainian'],
  chain: ['Ethereum', 'Base', 'Polygon', 'Arbitrum', 'Optimism', 'Solana', 'Avalanche', 'BNB Chain'],
  fmt: ['JSON', 'JSON or CSV', 'JSON or XML', 'compact JSON'],
  ms: ['40', '60', '80', '90', '120', '150', '180', '200', '250', '300', '400', '500', '700', '900'],
  price: ['0.001', '0.002', '0.003', '0.005', '0.01', '0.02', '0.03', '0.05', '0.10', '0.25'],
};

// Brand parts not tied to any task.
const GENERIC_STEMS = ['Orbit', 'Helix', 'Quanta', 'Vertex', 'Lumen', 'Kestrel', 'Basalt', 'Juniper', 'Tandem',
  'Pylon', 'Argon', 'Cobalt', 'Sable', 'Fathom', 'Ember', 'Harbor', 'Nova', 'Piston', 'Granite', 'Falcon',
  'Marble', 'Quill', 'Otter', 'Tundra', 'Willow', 'Zenith', 'Krypton', 'Onyx', 'Saffire', 'Beacon', 'Mosaic',
  'Nimble', 'Parallax', 'Rook', 'Solace', 'Tessel', 'Umber', 'Vanta', 'Wren', 'Yarrow', 'Alder', 'Brisk',
  'Cinder', 'Delta', 'Fennel', 'Glint', 'Hollow', 'Indigo', 'Jasper', 'Keel', 'Larch', 'Mistral', 'Nectar'];
const SUFFIXES = ['', '', 'ly', 'io', ' Labs', ' Data', 'Hub', ' Works', ' AI', 'HQ', 'Stack', 'Base', 'Flow',
  'Point', ' Cloud', 'ify', ' Pro', ' Systems', 'Grid', 'Kit', 'Bridge', 'Line', 'Forge', 'Scope', 'Sense', 'Wise'];
const TLDS = ['com', 'com', 'io', 'io', 'dev', 'ai', 'net', 'co', 'xyz', 'app', 'cloud', 'tech', 'sh'];

// ---------- categories ----------
// slug, method (string or array to pick from), titles (task phrases for service
// names), stems (brand parts flavoured by the task), paths, desc (templates),
// extra (optional category-specific sentences).
const CATS = [
  {
    slug: 'weather-forecast', method: 'GET',
    titles: ['Weather Forecast', 'Forecast API', 'Weather', 'Hourly Forecast', '7-Day Forecast', 'Weather Outlook', 'Local Weather', 'Weather Conditions'],
    stems: ['Nimbus', 'Cirrus', 'Stratus', 'Isobar', 'Zephyr', 'Skycast', 'Barometer', 'Cumulo', 'Sirocco'],
    paths: ['forecast', 'weather/forecast', 'forecast/hourly', 'forecast/daily', 'weather/current', 'weather', 'outlook'],
    desc: [
      '{Hourly|Daily|Hourly and daily} weather forecasts for any {location|city|coordinate} {worldwide|on earth|in [region]}. Returns temperature, precipitation probability, wind speed and humidity{ for the next [n:3-16] days|}.',
      'Get the current conditions and a [n:5-14]-day forecast for a latitude/longitude pair. Data {comes from|is blended from} {national meteorological services|several global numerical models|GFS, ECMWF and ICON models}.',
      'Forecasting endpoint that returns predicted conditions {by the hour|in 3-hour steps|per day}: temperature highs and lows, cloud cover, UV index and chance of precipitation.',
      'Weather API for agents. Pass a city name or coordinates and receive current weather plus {short-range|medium-range|extended} forecasts in [fmt].',
      'Minute-by-minute precipitation nowcasts and hourly forecasts{, with severe weather alerts|}. {Useful for|Built for} logistics, {agriculture|farming} and {event planning|travel apps}.',
      'Provides forecasted temperature, feels-like temperature, dew point, wind gusts and pressure for [n:40000-200000] locations.',
      'Weather predictions for the coming week at {1 km|3 km|9 km} resolution, including snowfall, thunderstorm risk and visibility.',
    ],
    extra: ['Forecasts are updated every [n:1-6] hours.', 'Units can be metric or imperial.', 'Includes sunrise and sunset times.',
      'Historical observations are not included; this endpoint is forecast only.', 'Marine and mountain forecasts are available on request.'],
  },
  {
    slug: 'air-quality', method: 'GET',
    titles: ['Air Quality', 'AQI', 'Air Quality Index', 'Pollution Data', 'Air Pollution', 'Pollen and Air'],
    stems: ['Aero', 'Breathe', 'Ozone', 'Particula', 'Clearair', 'Haze', 'Purair', 'Lungs'],
    paths: ['air-quality', 'aqi', 'air/current', 'pollution', 'airquality/forecast', 'pollen'],
    desc: [
      'Real-time air quality index (AQI) for any location{ in [region]| worldwide}. Returns PM2.5, PM10, ozone, NO2, SO2 and CO concentrations.',
      'Air pollution readings from {[n:5000-30000] ground monitoring stations|government monitors and low-cost sensors}, with the dominant pollutant and health recommendations.',
      'Get the current AQI and an air quality forecast for the next [n:2-5] days{, including pollen counts|}. Follows the {US EPA|European EAQI} scale.',
      'Pollen and air pollution data for coordinates: tree, grass and weed pollen levels plus particulate matter.',
      'Wildfire smoke and particulate monitoring. Returns PM2.5 concentration and an air quality category such as good, moderate or unhealthy.',
    ],
    extra: ['Station metadata includes distance from the requested point.', 'Readings refresh every [n:10-60] minutes.', 'Health advice is provided for sensitive groups.'],
  },
  {
    slug: 'earthquake-feed', method: 'GET',
    titles: ['Earthquake Feed', 'Seismic Events', 'Quake Alerts', 'Earthquake Data', 'Seismic Monitor'],
    stems: ['Richter', 'Seismo', 'Fault', 'Tecton', 'Quake', 'Epicenter', 'Mantle'],
    paths: ['earthquakes', 'quakes/recent', 'seismic/events', 'earthquakes/feed', 'events/radius'],
    desc: [
      'Feed of recent earthquakes worldwide with magnitude, depth, epicenter coordinates and time of origin{. Filter by minimum magnitude or region|}.',
      'Seismic event data {aggregated from USGS, EMSC and regional networks|from global seismograph networks}. Query earthquakes by bounding box, date range or magnitude.',
      'Real-time quake alerts: every seismic event above magnitude [n:2-4].5 within minutes of detection, in GeoJSON.',
      'Historical and live earthquake catalog. Each event includes magnitude type, depth in kilometers, felt reports and a tsunami warning flag.',
      'Returns the latest earthquakes within a given radius of a point, sorted by time or magnitude.',
    ],
    extra: ['Event data is revised as seismologists review it.', 'The catalog goes back to [n:1900-1990].', 'Aftershock sequences are grouped with their main shock.'],
  },
  {
    slug: 'stock-quote', method: 'GET',
    titles: ['Stock Quote', 'Stock Price', 'Equity Quotes', 'Market Data', 'Share Price', 'Real-Time Quotes', 'Ticker Lookup'],
    stems: ['Ticker', 'Bullish', 'Equinox', 'Wallst', 'Bourse', 'Dividend', 'Sigma', 'Candle'],
    paths: ['quote', 'stocks/quote', 'equities/price', 'stock/price', 'market/quote', 'ticker/quote'],
    desc: [
      '{Real-time|Delayed|Real-time and delayed} stock quotes for {US equities|NYSE and NASDAQ listed companies|stocks on [n:30-70] exchanges}. Returns last price, bid, ask, volume and daily change.',
      'Look up the current share price of any public company by ticker symbol (for example AAPL, MSFT or TSLA). {15-minute delayed|Real-time} data.',
      'Equity market data: intraday quotes, previous close, open, high, low and 52-week range for stocks and ETFs.',
      'Stock price endpoint. Pass one or more tickers and get the latest price, percent change and market capitalization.',
      'Quotes for {global equities|US and European stocks|stocks, ETFs and indices}, including pre-market and after-hours prices.',
    ],
    extra: ['Covers NYSE, NASDAQ, LSE, TSX and Euronext.', 'End-of-day price history is available on a separate path.',
      'Data is delayed by 15 minutes unless you pay for the real-time tier.'],
  },
  {
    slug: 'crypto-price', method: 'GET',
    titles: ['Crypto Price', 'Token Price', 'Coin Prices', 'Crypto Market Data', 'Crypto Ticker', 'Digital Asset Prices'],
    stems: ['Satoshi', 'Hodl', 'Coinstat', 'Blockmark', 'Altura', 'Cryptex', 'Tokenomic'],
    paths: ['price', 'crypto/price', 'tokens/price', 'coins/markets', 'simple/price', 'ticker'],
    desc: [
      'Current price of {Bitcoin, Ether and [n:5000-15000] other cryptocurrencies|any cryptocurrency|any token} in USD, EUR or BTC, aggregated from {major exchanges|centralized and decentralized exchanges}.',
      'Crypto market data: spot price, 24h volume, market cap and percent change for coins and tokens{ such as BTC, ETH and SOL|}.',
      'Token price lookup by symbol or contract address{ on [chain]|}. Returns a volume-weighted average price across DEX pools.',
      'Live cryptocurrency prices with OHLC candles at 1m, 1h and 1d intervals.',
      'Get the USD value of a coin. Prices refresh every few seconds from {[n:20-120] exchanges|order books on major venues}.',
    ],
    extra: ['Stablecoin pegs are tracked separately.', 'Historical prices go back to 2013.', 'Newly listed tokens appear within minutes.'],
  },
  {
    slug: 'gas-price', method: 'GET',
    titles: ['Gas Price', 'Gas Tracker', 'Gas Oracle', 'Fee Estimator', 'Gwei Tracker', 'Transaction Fee Estimate'],
    stems: ['Gwei', 'Mempool', 'Basefee', 'Blockspace', 'Tipjar', 'Nonce'],
    paths: ['gas', 'gas/price', 'gas/oracle', 'fees/estimate', 'gastracker'],
    desc: [
      'Current gas price on {Ethereum|[chain]|Ethereum and major L2s} in gwei, with slow, standard and fast estimates{ and expected confirmation time|}.',
      'Gas oracle for EVM chains: base fee, priority fee (tip) suggestions and the predicted base fee of the next block.',
      'Estimate the network fee for a transaction before you send it. Returns EIP-1559 max fee and max priority fee values for [chain].',
      'Tracks pending transactions in the mempool to recommend gas fees that will land in the next [n:1-3] blocks.',
      'Gas fee history for the last [n:100-1024] blocks, useful for timing transactions when the network is quiet.',
    ],
    extra: ['Supports Ethereum, Base, Arbitrum, Optimism and Polygon.', 'Values are returned in wei and gwei.', 'Blob gas for rollups is reported separately.'],
  },
  {
    slug: 'fuel-price', method: 'GET',
    titles: ['Fuel Prices', 'Gas Station Prices', 'Petrol Prices', 'Diesel Prices', 'Pump Price Finder'],
    stems: ['Pump', 'Octane', 'Petrolio', 'Fillup', 'Refuel', 'Gallon', 'Forecourt'],
    paths: ['fuel/prices', 'stations/prices', 'gasoline', 'petrol/prices', 'fuel'],
    desc: [
      'Retail fuel prices at {gas stations|petrol stations|filling stations} around a location: regular, midgrade and premium gasoline and diesel.',
      'Daily average pump prices by {state and city|country and region} for gasoline and diesel, in local currency per liter or per gallon.',
      'Find the cheapest gas station within a radius. Prices are {crowdsourced and verified|reported by station operators} and updated {hourly|several times a day}.',
      'Petrol and diesel price data for [n:20-40] countries, including weekly averages going back years.',
      'Station-level fuel price feed with brand, address, opening hours and EV charging availability.',
    ],
    extra: ['Covers more than [n:60000-150000] stations.', 'Prices include taxes.', 'LPG and E85 prices are included where sold.'],
  },
  {
    slug: 'geocoding', method: 'GET',
    titles: ['Geocoding', 'Geocoder', 'Address to Coordinates', 'Reverse Geocoding', 'Place Search', 'Forward Geocode'],
    stems: ['Atlas', 'Latlong', 'Geopoint', 'Cartograph', 'Compass', 'Locus', 'Gazetteer'],
    paths: ['geocode', 'geocode/forward', 'geocode/reverse', 'places/search', 'places/geocode'],
    desc: [
      'Convert a street address or place name into latitude and longitude coordinates{, with a confidence score|}. Reverse geocoding turns coordinates back into a formatted address.',
      'Forward and reverse geocoding for [n:150-250] countries, built on open address data and OpenStreetMap.',
      'Geocoder API: send free-form text such as a street and house number and get back structured address components and a lat/lng point.',
      'Batch geocode up to [n:100-1000] addresses per request. Results include postal code, county, region and country.',
      'Place search and geocoding with autocomplete suggestions as the user types.',
    ],
    extra: ['Rooftop accuracy is available in the US, UK and Germany.', 'Returns GeoJSON or plain JSON.', 'Results can be biased toward a focus point.'],
  },
  {
    slug: 'address-validation', method: ['GET', 'POST'],
    titles: ['Address Validation', 'Address Verification', 'Postal Address Check', 'Address Standardization', 'Deliverability Check'],
    stems: ['Postal', 'Zipline', 'Mailable', 'Doorstep', 'Curb'],
    paths: ['address/verify', 'address/validate', 'addresses/standardize', 'verify/address'],
    desc: [
      'Verify that a postal address exists and is deliverable. Returns a standardized, corrected version following {USPS|Royal Mail|local postal} rules.',
      'Address verification for e-commerce checkout: catches typos, missing apartment numbers and invalid ZIP codes before you ship.',
      'Standardize and validate mailing addresses in [n:200-240] countries. Each result has a deliverability flag and a CASS-style match code.',
      'Checks whether an address is residential or commercial and whether mail can be delivered there.',
    ],
    extra: ['Corrections are returned alongside the original input.', 'Supports both single lines and structured fields.'],
  },
  {
    slug: 'map-routing', method: 'GET',
    titles: ['Directions', 'Routing', 'Route Planner', 'Driving Directions', 'Travel Time Matrix', 'Turn-by-Turn'],
    stems: ['Route', 'Detour', 'Milestone', 'Itinera', 'Navi', 'Shortcut'],
    paths: ['route', 'directions', 'matrix', 'isochrone', 'routing/optimize'],
    desc: [
      'Driving, cycling and walking directions between two or more points, with distance, travel time and turn-by-turn instructions.',
      'Route optimization for delivery fleets: order up to [n:25-200] stops to minimize total drive time.',
      'Travel time matrix: compute durations and distances between many origins and destinations in one call{, with live traffic|}.',
      'Isochrone endpoint that returns the area reachable within N minutes of a location by car, bike or on foot.',
    ],
    extra: ['Truck profiles respect height and weight limits.', 'Toll and ferry avoidance can be switched on.'],
  },
  {
    slug: 'translation', method: 'POST',
    titles: ['Translation', 'Translate', 'Machine Translation', 'Text Translator', 'Language Translation', 'Document Translation'],
    stems: ['Babel', 'Lingo', 'Polyglot', 'Rosetta', 'Glossa', 'Verba', 'Lingua'],
    paths: ['translate', 'translation', 'translate/text', 'translate/document'],
    desc: [
      'Translate text between [n:30-130] languages with neural machine translation. Auto-detects the source language{ and preserves formatting|}.',
      'Machine translation API: send a string or an array of strings and a target language code (for example es or ja) and get translated text back.',
      'Document translation for DOCX, PPTX and HTML files that keeps the layout intact. {Glossaries|Custom terminology} supported.',
      'Translates {[lang] to [lang]|between English and [lang]|any pair of [n:40-100] languages} with quality close to a professional translator.',
      'Localize app strings and product descriptions into multiple languages in one request. Includes language detection.',
    ],
    extra: ['Formal and informal tone can be selected for German, French and Japanese.', 'Billing is per character translated.'],
  },
  {
    slug: 'speech-to-text', method: 'POST',
    titles: ['Speech to Text', 'Transcription', 'Audio Transcription', 'Speech Recognition', 'Voice to Text', 'Transcribe'],
    stems: ['Verbatim', 'Scribe', 'Dictum', 'Audient', 'Sonic', 'Stenograph'],
    paths: ['transcribe', 'transcriptions', 'speech/recognize', 'audio/transcribe', 'stt'],
    desc: [
      'Transcribe audio and video files to text{ in [n:30-100] languages|}. Returns a transcript with word-level timestamps{ and diarization|}.',
      'Speech recognition API: upload an MP3, WAV or M4A file or pass a URL and receive the spoken words as text.',
      'Automatic speech recognition (ASR) for calls, meetings and podcasts, with punctuation and diarization.',
      'Real-time streaming transcription over WebSocket plus batch transcription of recorded audio.',
      'Converts voice memos and audio into searchable text and SRT subtitles{, with optional translation of the transcript into English|}.',
    ],
    extra: ['Custom vocabulary improves accuracy on names and jargon.', 'Files up to [n:1-4] hours long are accepted.'],
  },
  {
    slug: 'text-to-speech', method: 'POST',
    titles: ['Text to Speech', 'Voice Synthesis', 'TTS', 'Speech Synthesis', 'AI Voices', 'Read Aloud'],
    stems: ['Vox', 'Narrate', 'Cadence', 'Timbre', 'Orator', 'Voicebox'],
    paths: ['tts', 'speech', 'synthesize', 'audio/speech', 'voices/synthesize'],
    desc: [
      'Turn text into natural-sounding speech with [n:50-400] voices in [n:20-60] languages. Returns MP3 or WAV audio.',
      'Neural text-to-speech: send text or SSML, choose a voice, and get back synthesized audio{ with adjustable speed and pitch|}.',
      'Voice synthesis for narration, IVR prompts and accessibility. Supports voice cloning from a short sample.',
      'Generates spoken audio from written text, with streaming output for low-latency voice agents.',
    ],
    extra: ['Audio is returned as a URL or base64.', 'Pronunciation can be tuned with a lexicon.'],
  },
  {
    slug: 'ocr', method: 'POST',
    titles: ['OCR', 'Text Recognition', 'Image to Text', 'Document OCR', 'Receipt Scanner', 'Handwriting Recognition'],
    stems: ['Glyph', 'Scanly', 'Optic', 'Pixtext', 'Inkread'],
    paths: ['ocr', 'ocr/image', 'recognize', 'vision/text', 'scan'],
    desc: [
      'Optical character recognition: extract printed and handwritten text from images and scanned documents{ in [n:50-120] languages|}.',
      'OCR API that reads text from photos, screenshots and scans and returns lines, words and bounding boxes.',
      'Receipt and invoice OCR: pulls merchant, date, line items, totals and tax from a photo of a receipt.',
      'Recognizes text in JPEG, PNG, TIFF and multi-page scanned PDFs, with layout detection for tables and columns.',
      'Reads ID cards, passports and license plates from images and returns the recognized characters as structured fields.',
    ],
    extra: ['Confidence scores are given per word.', 'Rotated and skewed pages are corrected automatically.'],
  },
  {
    slug: 'pdf-extract', method: 'POST',
    titles: ['PDF Extract', 'PDF to Text', 'PDF Parser', 'PDF Table Extraction', 'Document Parser'],
    stems: ['Docu', 'Parsely', 'Pagewise', 'Folio', 'Leaflet'],
    paths: ['pdf/extract', 'pdf/text', 'parse', 'documents/parse', 'pdf/tables'],
    desc: [
      'Extract text, tables and metadata from PDF files. Returns clean Markdown or JSON{ with page numbers|}.',
      'PDF parser that converts digital PDFs into structured content: headings, paragraphs, lists and tables.',
      'Pull tables out of PDF reports and bank statements as CSV{, even across page breaks|}.',
      'Send a PDF by URL or upload and get the full text, document title, author and page count. Falls back to OCR for scanned pages.',
      'Splits long PDFs into chunks ready for embedding and retrieval, keeping section headings.',
    ],
    extra: ['Password-protected files are supported if you pass the password.', 'Maximum file size is [n:20-200] MB.'],
  },
  {
    slug: 'pdf-generate', method: 'POST',
    titles: ['HTML to PDF', 'PDF Generator', 'Invoice PDF', 'PDF Rendering'],
    stems: ['Printly', 'Papercut', 'Inkjet', 'Typeset'],
    paths: ['pdf', 'pdf/render', 'html-to-pdf', 'documents/generate'],
    desc: [
      'Convert HTML or a URL to a pixel-perfect PDF with headers, footers and page numbers.',
      'PDF generation from templates: merge JSON data into an invoice, report or certificate layout and download the file.',
      'Renders Markdown or HTML into print-ready PDF documents with custom fonts and A4 or Letter sizes.',
    ],
    extra: ['Files are stored for [n:1-30] days.', 'Digital signatures can be applied.'],
  },
  {
    slug: 'image-generation', method: 'POST',
    titles: ['Image Generation', 'Text to Image', 'AI Image Generator', 'Art Generator', 'Image Synthesis'],
    stems: ['Pixel', 'Canvas', 'Dreamer', 'Palette', 'Brushwork', 'Muse'],
    paths: ['images/generate', 'generate', 'txt2img', 'image', 'images'],
    desc: [
      'Generate images from a text prompt using {diffusion models|a fine-tuned SDXL model|state-of-the-art image models}. Returns PNG or WebP at up to [n:1024-2048] px.',
      'Text-to-image API: describe a scene and receive [n:1-4] generated pictures{, with negative prompts and seed control|}.',
      'Create illustrations, logos, product shots and concept art from a written description.',
      'AI art generator with style presets such as photo, anime, watercolor and 3D render. Also supports inpainting and image-to-image.',
    ],
    extra: ['Generated images are hosted for [n:1-30] days.', 'Commercial use of outputs is allowed.'],
  },
  {
    slug: 'image-recognition', method: 'POST',
    titles: ['Image Recognition', 'Object Detection', 'Image Tagging', 'Image Classification', 'Vision API'],
    stems: ['Lens', 'Retina', 'Optik', 'Iris', 'Pupil'],
    paths: ['vision/detect', 'images/tag', 'classify', 'detect', 'analyze'],
    desc: [
      'Detect objects, people, animals and landmarks in an image and return labels with confidence scores and bounding boxes.',
      'Image tagging API: upload a photo and get descriptive keywords{ for search and cataloging|}.',
      'Classify images into [n:1000-20000] categories, with NSFW detection and dominant colors.',
      'Computer vision endpoint that describes what is in a picture and counts objects such as cars or people.',
    ],
    extra: ['Face detection returns boxes but no identities.', 'Custom labels can be trained from [n:20-100] examples.'],
  },
  {
    slug: 'sanctions-screening', method: ['POST', 'GET'],
    titles: ['Sanctions Screening', 'OFAC Check', 'Sanctions List Search', 'Watchlist Screening', 'AML Screening', 'PEP Screening'],
    stems: ['Aegis', 'Sentinel', 'Clearance', 'Vigil', 'Bastion', 'Warden'],
    paths: ['screen', 'sanctions/search', 'screening', 'ofac/check', 'watchlist/search'],
    desc: [
      'Screen names of people and companies against {OFAC SDN, UN, EU and UK HMT sanctions lists|global sanctions lists and watchlists|[n:100-300] sanctions lists and watchlists}. Fuzzy matching catches transliterations and aliases.',
      'OFAC screening API: check whether an individual or entity appears on the Specially Designated Nationals list{ and other US sanctions programs|}.',
      'AML watchlist screening for sanctioned persons, politically exposed persons (PEPs) and adverse media.',
      'Returns potential matches with a match score, the listing program, date of birth and nationality so compliance teams can review hits.',
      'Check crypto wallet addresses and counterparties against sanctions designations before you send funds.',
    ],
    extra: ['Lists are refreshed {daily|every [n:1-6] hours}.', 'An audit trail is kept for each screening.', 'Ongoing monitoring re-screens saved names when lists change.'],
  },
  {
    slug: 'kyc-verification', method: 'POST',
    titles: ['Identity Verification', 'KYC', 'ID Verification', 'Document Verification', 'Age Verification'],
    stems: ['Trustline', 'Verif', 'Idently', 'Onboard', 'Proofly'],
    paths: ['verify', 'identity/verify', 'kyc/check', 'id/verify'],
    desc: [
      'Verify the identity of a user from a photo of a government ID and a selfie, with liveness detection and face matching.',
      'KYC onboarding API: checks passports, driver licenses and national ID cards from [n:150-200] countries for signs of tampering.',
      'Confirms that a person is who they claim to be by matching name, date of birth and address against trusted data sources.',
      'Age verification for regulated goods: returns whether the user is over 18 or 21 without storing their document.',
    ],
    extra: ['Most checks complete in under [n:5-30] seconds.', 'Images are deleted after the decision.'],
  },
  {
    slug: 'email-validation', method: 'GET',
    titles: ['Email Validation', 'Email Verification', 'Email Checker', 'Bounce Checker', 'Email List Cleaning'],
    stems: ['Verimail', 'Mailcheck', 'Deliverly', 'Syntaxa', 'Mxprobe'],
    paths: ['email/validate', 'email/verify', 'validate', 'emails/check'],
    desc: [
      'Check whether an email address is valid and deliverable: syntax, domain, MX records and an SMTP mailbox test{ without sending a message|}.',
      'Email verification API that flags disposable, role-based and catch-all addresses{ and suggests fixes for typos like gmial.com|}.',
      'Clean your mailing list before a campaign. Each address gets a status of valid, invalid, risky or unknown.',
      'Validates email addresses in real time at signup to block fake accounts and reduce bounce rates.',
      'Returns a deliverability score for an email address along with the mail server and whether the domain accepts all mail.',
    ],
    extra: ['Bulk lists of up to [n:10000-100000] addresses can be uploaded.', 'Free email providers are labeled.'],
  },
  {
    slug: 'email-send', method: 'POST',
    titles: ['Email Sending', 'Transactional Email', 'Send Email', 'Email Delivery', 'SMTP Relay', 'Email API'],
    stems: ['Envelope', 'Dispatch', 'Carrier', 'Pigeon', 'Stamp', 'Outbox'],
    paths: ['send', 'email/send', 'messages', 'mail/send', 'emails'],
    desc: [
      'Send transactional email such as receipts, password resets and notifications through a simple HTTP call{ with open and click tracking|}.',
      'Email delivery API: pass a sender, recipients, subject and HTML or plain text body and the message is queued for sending.',
      'SMTP relay and REST endpoint for outbound mail, with DKIM signing, bounce handling and delivery webhooks.',
      'Lets an agent email a person on your behalf from a verified domain. Attachments up to [n:10-25] MB.',
      'Bulk and marketing email sending with templates, scheduling and unsubscribe management.',
    ],
    extra: ['Dedicated IPs are available for high volume senders.', 'Each message gets a delivery status you can poll.'],
  },
  {
    slug: 'email-inbox', method: ['GET', 'POST'],
    titles: ['Email Inbox', 'Mailbox API', 'Temporary Inbox', 'Inbound Email', 'Read Email', 'Disposable Mailbox'],
    stems: ['Inboxly', 'Letterdrop', 'Pigeonhole', 'Postroom', 'Mailslot'],
    paths: ['inbox', 'inboxes/messages', 'mail/read', 'messages/inbound', 'mailbox'],
    desc: [
      'Create a temporary inbox on demand and read the messages it receives, including verification codes and links.',
      'Mailbox API that lets an agent list, search and read emails in a connected {Gmail, Outlook or IMAP|IMAP} account.',
      'Inbound email parsing: receive mail at your own address and get each message as JSON with sender, subject, body and attachments.',
      'Programmable inboxes for AI agents: each agent gets its own address to receive replies{ and can poll for new mail|}.',
      'Fetch unread messages from an IMAP mailbox, mark them as read and download attachments.',
    ],
    extra: ['Inboxes expire after [n:1-72] hours unless renewed.', 'Webhooks fire when new mail arrives.'],
  },
  {
    slug: 'sms-send', method: 'POST',
    titles: ['SMS API', 'Text Messaging', 'Send SMS', 'SMS Gateway', 'OTP SMS'],
    stems: ['Textra', 'Pager', 'Bleep', 'Chirp', 'Shortcode'],
    paths: ['sms', 'sms/send', 'messages/sms', 'otp/send'],
    desc: [
      'Send SMS text messages to mobile numbers in [n:150-200] countries with delivery receipts.',
      'SMS gateway for one-time passcodes (OTP), alerts and reminders. Sender ID and two-way messaging are supported in some countries.',
      'Programmable messaging: text a phone number, receive replies via webhook and check message status.',
    ],
    extra: ['Unicode messages are split into segments automatically.', 'Priced per segment sent.'],
  },
  {
    slug: 'phone-lookup', method: 'GET',
    titles: ['Phone Lookup', 'Phone Number Validation', 'Caller ID', 'Carrier Lookup', 'Reverse Phone Lookup', 'HLR Lookup'],
    stems: ['Dialtone', 'Callerly', 'Ringo', 'Handset', 'Numverse'],
    paths: ['phone/lookup', 'lookup', 'phone/validate', 'numbers/info', 'callerid'],
    desc: [
      'Validate a phone number and get its country, carrier, line type (mobile, landline or VoIP) and E.164 format.',
      'Reverse phone lookup: find the name and location associated with a number, and who the carrier is.',
      'Caller ID and spam score for incoming calls. Tells you who is calling before you pick up.',
      'HLR lookup shows whether a mobile number is active, roaming or ported to another network.',
    ],
    extra: ['Numbers can be passed in any common format.', 'Coverage includes [n:200-240] countries and territories.'],
  },
  {
    slug: 'whois-domain', method: 'GET',
    titles: ['WHOIS Lookup', 'Domain WHOIS', 'RDAP Lookup', 'Domain Registration Data', 'Domain Ownership'],
    stems: ['Regis', 'Domainly', 'Dotinfo', 'Whoisly', 'Registra'],
    paths: ['whois', 'whois/lookup', 'domains/whois', 'rdap'],
    desc: [
      'WHOIS lookup for any domain name: registrar, creation and expiration dates, name servers and registrant contact details where not redacted.',
      'Find out who owns a domain. Returns parsed WHOIS and RDAP records for [n:1000-1500] top-level domains.',
      'Domain registration data in clean JSON, including the registrar abuse contact and domain status codes.',
      'Historical WHOIS records showing previous owners of a domain and when it changed hands.',
    ],
    extra: ['Privacy-protected records are flagged.', 'Raw WHOIS text is included for auditing.'],
  },
  {
    slug: 'domain-availability', method: 'GET',
    titles: ['Domain Availability', 'Domain Search', 'Domain Name Checker', 'Domain Suggestions'],
    stems: ['Namecraft', 'Dotspot', 'Tldly', 'Namewise'],
    paths: ['domains/available', 'domain/check', 'availability', 'domains/suggest'],
    desc: [
      'Check if a domain name is available to register{ across [n:300-1200] TLDs|}, with registration and renewal prices.',
      'Domain search: suggest available names for a keyword or business idea, including premium and aftermarket domains.',
      'Bulk availability check for up to [n:50-500] domains per call using registry EPP and DNS signals.',
    ],
    extra: ['Prices are shown in USD.', 'Reserved and premium names are marked.'],
  },
  {
    slug: 'dns-lookup', method: 'GET',
    titles: ['DNS Lookup', 'DNS Records', 'DNS Resolver', 'MX Lookup', 'DNS Propagation Check'],
    stems: ['Nameserv', 'Rootzone', 'Recursor', 'Zonefile', 'Digger'],
    paths: ['dns', 'dns/lookup', 'resolve', 'records', 'dns/query'],
    desc: [
      'Resolve DNS records for a hostname: A, AAAA, MX, TXT, CNAME, NS and SOA{, queried from multiple resolvers|}.',
      'DNS lookup API that returns record values and TTLs and can check propagation from [n:20-60] locations around the world.',
      'Query MX, SPF, DKIM and DMARC records to debug the mail configuration of a domain.',
      'DNS over HTTPS resolver with DNSSEC validation and reverse (PTR) lookups for IP addresses.',
    ],
    extra: ['Answers include the authoritative server that replied.', 'Passive DNS history is a separate product.'],
  },
  {
    slug: 'ip-geolocation', method: 'GET',
    titles: ['IP Geolocation', 'IP Lookup', 'IP Location', 'IP Intelligence', 'VPN Detection'],
    stems: ['Netloc', 'Hopcount', 'Packet', 'Subnet', 'Octet'],
    paths: ['ip', 'ip/lookup', 'geoip', 'ip/location', 'lookup'],
    desc: [
      'Get the approximate location of an IP address: country, region, city, postal code, latitude and longitude{ and time zone|}.',
      'IP lookup with ASN, ISP, organization and connection type for any IPv4 or IPv6 address.',
      'Detect VPNs, proxies, Tor exit nodes and hosting providers behind an IP address to prevent fraud.',
      'IP to country mapping updated daily, accurate to the city level in [n:80-95]% of cases.',
    ],
    extra: ['Lookups for your own caller IP need no parameter.', 'The database is rebuilt weekly.'],
  },
  {
    slug: 'ssl-certificate', method: 'GET',
    titles: ['SSL Certificate Check', 'TLS Inspector', 'Certificate Monitor', 'SSL Checker'],
    stems: ['Certly', 'Handshake', 'Padlock', 'Chainsafe'],
    paths: ['ssl/check', 'tls', 'certificates', 'cert/inspect'],
    desc: [
      'Inspect the TLS certificate served by a host: issuer, validity dates, days until expiry, SANs and chain problems.',
      'SSL checker that grades the HTTPS configuration of a server and warns about weak ciphers and expired certificates.',
      'Monitor certificate expiry for a list of domains and search certificate transparency logs for newly issued certificates.',
    ],
    extra: ['OCSP stapling status is reported.', 'Alerts can be sent [n:7-30] days before expiry.'],
  },
  {
    slug: 'web-scrape', method: ['GET', 'POST'],
    titles: ['Web Scraper', 'Page Scraping', 'HTML Extraction', 'Web Crawler', 'URL to Markdown', 'Scraping API'],
    stems: ['Spider', 'Crawly', 'Harvest', 'Skimmer', 'Fetcher'],
    paths: ['scrape', 'fetch', 'crawl', 'extract', 'page'],
    desc: [
      'Fetch any web page and return its HTML, rendered with a headless browser{ so JavaScript content is included|}. Rotating proxies avoid blocks.',
      'Web scraping API: give it a URL and CSS selectors or a JSON schema and it extracts structured fields from the page.',
      'Turn a web page into clean Markdown or plain text for LLMs, stripping navigation, ads and cookie banners.',
      'Crawl a site starting from one URL, following links up to a depth you choose, and download the content of each page.',
      'Scrapes product pages, listings and search results with CAPTCHA handling and residential IPs in [n:20-190] countries.',
    ],
    extra: ['Robots.txt is respected by default.', 'Failed fetches are retried up to [n:2-5] times at no cost.'],
  },
  {
    slug: 'screenshot', method: 'GET',
    titles: ['Website Screenshot', 'Screenshot API', 'Page Capture', 'URL to Image'],
    stems: ['Snapshot', 'Shutter', 'Viewport', 'Framegrab'],
    paths: ['screenshot', 'capture', 'render', 'shot'],
    desc: [
      'Capture a full-page screenshot of any URL as PNG, JPEG or PDF{ at a custom viewport size|}.',
      'Screenshot API with device emulation, dark mode, ad blocking and delayed capture for pages that load slowly.',
      'Renders a web page in Chromium and returns an image, useful for link previews and visual monitoring.',
    ],
    extra: ['Images are cached for [n:1-24] hours.', 'Cookie banners are hidden automatically.'],
  },
  {
    slug: 'news-search', method: 'GET',
    titles: ['News Search', 'News API', 'Headlines', 'News Feed', 'Press Monitoring'],
    stems: ['Gazette', 'Bulletin', 'Chronicle', 'Wire', 'Tribune', 'Newsroom'],
    paths: ['news', 'news/search', 'headlines', 'articles', 'everything'],
    desc: [
      'Search news articles from [n:30000-150000] publishers by keyword, topic, source, language and date{ with full text where licensed|}.',
      'Latest headlines by country and category, such as business, technology, sports and health.',
      'News monitoring API that alerts you when a company or person is mentioned in the press, with sentiment.',
      'Returns recent articles with title, summary, author, publish time and source URL, deduplicated across outlets.',
      'Breaking news feed and archive search going back to [n:2000-2018].',
    ],
    extra: ['Paywalled sources return only the first paragraph.', 'New stories appear within [n:2-15] minutes of publication.'],
  },
  {
    slug: 'search-index', method: ['POST', 'GET'],
    titles: ['Search Index', 'Full-Text Search', 'Hosted Search', 'Vector Search', 'Site Search'],
    stems: ['Indexa', 'Lucent', 'Sift', 'Seekr', 'Findly'],
    paths: ['indexes', 'indexes/search', 'documents', 'query', 'index'],
    desc: [
      'Hosted full-text search index: upload your documents as JSON and query them with typo tolerance, filters and facets.',
      'Add search to your app without running Elasticsearch. Index records, then search them with ranking you can tune.',
      'Vector and keyword hybrid search over your own content. Supports embeddings, metadata filters and pagination.',
      'Create an index, push documents and run queries in milliseconds{, with synonyms and highlighting|}.',
    ],
    extra: ['Indexes of up to [n:1-50] million records.', 'Documents become searchable within a second of upload.'],
  },
  {
    slug: 'web-search', method: 'GET',
    titles: ['Web Search', 'Search Engine API', 'SERP API', 'Internet Search'],
    stems: ['Seeker', 'Serpent', 'Queryfox', 'Lookout'],
    paths: ['search', 'serp', 'web/search', 'websearch'],
    desc: [
      'Search the web and get organic results, titles, snippets and URLs{ in a clean JSON format|}. Built for LLM grounding.',
      'SERP API: returns search engine results pages with ads, featured snippets, knowledge panels and related questions.',
      'Live internet search for agents that need fresh information, with optional summarized answers and citations.',
    ],
    extra: ['Results can be localized by country and language.', 'Image and video verticals are supported.'],
  },
  {
    slug: 'academic-search', method: 'GET',
    titles: ['Paper Search', 'Scholarly Search', 'Research Papers', 'Citation Lookup'],
    stems: ['Scholar', 'Citely', 'Preprint', 'Footnote'],
    paths: ['papers/search', 'works', 'papers', 'citations'],
    desc: [
      'Search [n:100-250] million scholarly papers by keyword, author or DOI and get abstracts, citation counts and open-access PDF links.',
      'Academic literature API covering journals, conference proceedings and preprints, with references and citing papers.',
      'Look up the metadata of a paper from a DOI, arXiv ID or PubMed ID.',
    ],
    extra: ['Author disambiguation uses ORCID where available.', 'Citation graphs can be exported.'],
  },
  {
    slug: 'summarization', method: 'POST',
    titles: ['Summarization', 'Text Summarizer', 'TL;DR', 'Summary API', 'Document Summary'],
    stems: ['Brevity', 'Gist', 'Precis', 'Condense', 'Abridge'],
    paths: ['summarize', 'summary', 'summaries', 'text/summarize'],
    desc: [
      'Summarize long text, articles or transcripts into a short paragraph or bullet points{ of a length you choose|}.',
      'Abstractive summarization with a large language model. Pass a URL or raw text and get the key points.',
      'Condenses meeting notes, emails and reports into a TL;DR with action items.',
      'Produces an executive summary of documents up to [n:50-300] pages, with the main claims and figures.',
    ],
    extra: ['Summaries can be requested in another language.', 'Input is limited to [n:50000-400000] characters.'],
  },
  {
    slug: 'sentiment-analysis', method: 'POST',
    titles: ['Sentiment Analysis', 'Sentiment API', 'Opinion Mining', 'Emotion Detection', 'Review Analysis'],
    stems: ['Mood', 'Vibe', 'Affect', 'Pulse', 'Tonality'],
    paths: ['sentiment', 'analyze/sentiment', 'text/sentiment', 'emotions'],
    desc: [
      'Detect the sentiment of text as positive, negative or neutral with a confidence score{, in [n:10-40] languages|}.',
      'Opinion mining for product reviews, tweets and support tickets, with aspect-based sentiment for features like price or delivery.',
      'Emotion detection that labels text with joy, anger, sadness, fear or surprise.',
      'Measure how customers feel about your brand by scoring the tone of reviews and social posts.',
    ],
    extra: ['Sarcasm detection is experimental.', 'Batches of [n:100-1000] texts per call.'],
  },
  {
    slug: 'content-moderation', method: 'POST',
    titles: ['Content Moderation', 'Toxicity Filter', 'Profanity Filter', 'Safety Classifier'],
    stems: ['Guardrail', 'Bouncer', 'Sieve', 'Civility'],
    paths: ['moderate', 'moderation', 'classify/toxicity', 'filter'],
    desc: [
      'Flag toxic, hateful, sexual or violent content in user-generated text and images before it is published.',
      'Profanity and abuse filter with per-category scores and masked output.',
      'Moderation endpoint that classifies messages against a safety policy and explains why they were flagged.',
    ],
    extra: ['Thresholds can be tuned per category.', 'Supports [n:20-80] languages.'],
  },
  {
    slug: 'llm-completion', method: 'POST',
    titles: ['LLM Chat', 'Chat Completions', 'Text Generation', 'AI Assistant', 'Language Model API'],
    stems: ['Cortex', 'Neuron', 'Synapse', 'Sage', 'Prompta'],
    paths: ['chat/completions', 'completions', 'generate', 'chat'],
    desc: [
      'OpenAI-compatible chat completions endpoint serving open-weight models{ such as Llama, Mistral and Qwen|}. Pay per token.',
      'Send a prompt and get a generated answer from a large language model, with streaming and tool calling.',
      'Text generation API for drafting, rewriting, classification and question answering.',
    ],
    extra: ['Context windows up to [n:32-256]k tokens.', 'JSON mode and function calling are supported.'],
  },
  {
    slug: 'text-embedding', method: 'POST',
    titles: ['Embeddings', 'Text Embeddings', 'Vector Embeddings', 'Semantic Embeddings'],
    stems: ['Vectra', 'Latent', 'Cosine', 'Manifold'],
    paths: ['embeddings', 'embed', 'vectors'],
    desc: [
      'Turn sentences and documents into dense vectors for semantic search, clustering and recommendations.',
      'Embedding API returning [n:384-3072]-dimensional vectors from multilingual models.',
      'Batch embed up to [n:100-2048] texts per call; vectors are normalized for cosine similarity.',
    ],
    extra: ['Matryoshka truncation lets you shorten vectors.', 'Priced per thousand input tokens.'],
  },
  {
    slug: 'code-execution', method: 'POST',
    titles: ['Code Execution', 'Code Sandbox', 'Run Code', 'Code Interpreter', 'Remote Execution'],
    stems: ['Sandbox', 'Runbox', 'Execly', 'Kernel', 'Shellpod'],
    paths: ['execute', 'run', 'sandbox/exec', 'code/run', 'eval'],
    desc: [
      'Run Python, JavaScript, Go or Rust code in an isolated sandbox and get stdout, stderr and the exit code.',
      'Secure code interpreter for AI agents: execute untrusted snippets with time and memory limits{ and a scratch filesystem|}.',
      'Execute a script in a fresh container with common data science packages preinstalled; files you write can be downloaded.',
      'Evaluate code snippets in [n:20-60] programming languages, with optional test cases and package installation.',
    ],
    extra: ['Each run is limited to [n:10-300] seconds of CPU.', 'Network access is off unless you enable it.'],
  },
  {
    slug: 'wallet-balance', method: 'GET',
    titles: ['Wallet Balance', 'Address Balance', 'Portfolio', 'Token Balances', 'Onchain Balance'],
    stems: ['Vault', 'Purse', 'Coffer', 'Holdings', 'Balanse'],
    paths: ['balance', 'wallet/balance', 'address/balances', 'portfolio', 'accounts'],
    desc: [
      'Get the native and token balances held by a wallet address on [chain]{ and [n:10-40] other chains|}.',
      'Portfolio API: list every ERC-20 token, NFT and DeFi position for an address, valued in USD.',
      'Check how much ETH, USDC or SOL an address holds, with balances at any past block.',
      'Returns the balance of a blockchain account plus recent transactions and token transfers.',
    ],
    extra: ['Spam tokens are filtered out.', 'ENS and SNS names are resolved.'],
  },
  {
    slug: 'token-swap-quote', method: 'GET',
    titles: ['Swap Quote', 'DEX Aggregator', 'Token Swap', 'Best Route', 'Swap Pricing'],
    stems: ['Swapr', 'Liquid', 'Dexly', 'Slipstream', 'Ammo'],
    paths: ['quote', 'swap/quote', 'swap', 'routes', 'aggregator/quote'],
    desc: [
      'Get the best swap quote for exchanging one token for another across DEX liquidity on [chain], including price impact and expected output.',
      'DEX aggregator API: returns the optimal route, minimum amount received after slippage and ready-to-sign calldata.',
      'Quote how many tokens you would receive if you swapped a given amount{, comparing Uniswap, Curve and other pools|}.',
      'Cross-chain swap and bridge quotes with fees, estimated time and the route used.',
    ],
    extra: ['Quotes are valid for [n:15-60] seconds.', 'MEV protection can be requested.'],
  },
  {
    slug: 'nft-metadata', method: 'GET',
    titles: ['NFT Metadata', 'NFT API', 'Collection Data', 'NFT Lookup', 'Token Metadata'],
    stems: ['Mintable', 'Rarity', 'Artblock', 'Collectr'],
    paths: ['nft/metadata', 'nfts', 'collections', 'token/metadata'],
    desc: [
      'Fetch metadata for an NFT by contract address and token ID: name, image, traits and owner.',
      'NFT API covering collections on Ethereum, Base, Polygon and Solana, with floor price and rarity.',
      'Resolve tokenURI and IPFS links and return cached media and attributes for ERC-721 and ERC-1155 tokens.',
    ],
    extra: ['Metadata refreshes can be forced.', 'Broken IPFS links are retried through several gateways.'],
  },
  {
    slug: 'currency-exchange', method: 'GET',
    titles: ['Currency Exchange Rates', 'FX Rates', 'Currency Converter', 'Forex API', 'Exchange Rates'],
    stems: ['Fxly', 'Bureau', 'Tender', 'Cambio', 'Parity'],
    paths: ['rates', 'convert', 'fx/latest', 'exchange-rates', 'latest'],
    desc: [
      'Current and historical foreign exchange rates for [n:150-180] fiat currencies, updated every [n:1-60] minutes.',
      'Currency converter: convert an amount from one currency to another (for example USD to EUR) at the mid-market rate.',
      'Forex API with real-time rates, daily fixing and time series for charting currency pairs.',
      'Exchange rates from central banks and trading venues{, including the ECB reference rate|}.',
    ],
    extra: ['Precious metals are quoted too.', 'Rates are sourced from [n:8-20] providers.'],
  },
  {
    slug: 'vat-validation', method: 'GET',
    titles: ['VAT Validation', 'VAT Number Check', 'Tax ID Validation', 'VIES Lookup', 'VAT Rates'],
    stems: ['Taxly', 'Vatify', 'Ledgerline', 'Invoicer'],
    paths: ['vat/validate', 'vat', 'tax-id/verify', 'validate'],
    desc: [
      'Validate EU VAT numbers against the VIES service and return the registered company name and address.',
      'Check that the tax ID of a customer is valid for B2B invoicing: EU VAT, UK VAT, Swiss UID, Norwegian MVA and Australian ABN.',
      'VAT number verification with consultation numbers for audit records{, plus current VAT rates by country|}.',
      'Look up standard and reduced VAT rates for EU member states and validate a VAT ID in one call.',
    ],
    extra: ['VIES outages are retried in the background.', 'Results are cached for [n:1-24] hours.'],
  },
  {
    slug: 'company-lookup', method: 'GET',
    titles: ['Company Lookup', 'Business Registry', 'Company Data', 'Firmographics', 'Corporate Registry Search'],
    stems: ['Registrum', 'Firmly', 'Incorp', 'Corpus', 'Enterprize'],
    paths: ['companies/search', 'company', 'companies', 'enrich/company', 'registry'],
    desc: [
      'Search official company registries in [n:50-140] countries by name or registration number and get status, address, directors and filing history.',
      'Company enrichment from a domain name: industry, employee count, revenue range, headquarters and social profiles.',
      'Business registry API for checking that a firm is legally registered and active, with officers and shareholders.',
      'See who controls a company: directors, beneficial owners and incorporation date from public records.',
    ],
    extra: ['Registry extracts can be ordered as PDF.', 'Changes are tracked so you can watch a company.'],
  },
  {
    slug: 'sec-filings', method: 'GET',
    titles: ['SEC Filings', 'Financial Statements', 'Company Financials', 'EDGAR Search', 'Earnings Data'],
    stems: ['Edgarly', 'Fundamenta', 'Tenk', 'Ledgerbook'],
    paths: ['filings', 'financials', 'edgar/search', 'fundamentals'],
    desc: [
      'Full-text search over SEC EDGAR filings including 10-K, 10-Q, 8-K and proxy statements.',
      'Standardized financial statements for public companies: income statement, balance sheet and cash flow, quarterly and annual.',
      'Earnings reports, revenue and EPS history plus insider transactions filed with the SEC.',
    ],
    extra: ['XBRL facts are normalized across companies.', 'New filings appear within minutes of release.'],
  },
  {
    slug: 'flight-status', method: 'GET',
    titles: ['Flight Status', 'Flight Tracker', 'Live Flights', 'Airport Departures', 'Flight Delays'],
    stems: ['Contrail', 'Jetstream', 'Runway', 'Tarmac', 'Gatehouse'],
    paths: ['flights/status', 'flight', 'flights', 'airports/departures', 'track'],
    desc: [
      'Real-time flight status by flight number or route: scheduled, estimated and actual departure and arrival times, gate and terminal.',
      'Track a flight live on a map with position, altitude and speed from ADS-B receivers.',
      'Airport departures and arrivals boards for [n:3000-9000] airports, with delays and cancellations.',
      'Get notified when a flight is delayed, diverted or cancelled, including the reason where airlines publish it.',
    ],
    extra: ['Covers commercial, cargo and private flights.', 'Aircraft registration and type are included.'],
  },
  {
    slug: 'flight-search', method: 'GET',
    titles: ['Flight Search', 'Airfare Search', 'Cheap Flights', 'Flight Offers'],
    stems: ['Farecast', 'Layover', 'Skyfare', 'Boarding'],
    paths: ['flights/search', 'offers', 'fares', 'shopping/flights'],
    desc: [
      'Search flight offers between two airports for given dates and get fares, airlines, stops and baggage rules.',
      'Airfare search across [n:400-900] airlines and online travel agencies, sorted by price or duration.',
      'Find the cheapest dates to fly on a route, with price calendars and fare alerts.',
    ],
    extra: ['Fares are cached for [n:5-30] minutes.', 'Booking links open with the airline or agency.'],
  },
  {
    slug: 'shipping-tracking', method: 'GET',
    titles: ['Package Tracking', 'Shipment Tracking', 'Parcel Tracker', 'Courier Tracking', 'Delivery Status'],
    stems: ['Parcel', 'Freight', 'Cargo', 'Lading', 'Porter'],
    paths: ['track', 'trackings', 'shipments/track', 'parcels', 'tracking'],
    desc: [
      'Track parcels from [n:500-1500] carriers including UPS, FedEx, DHL and USPS with one tracking number; the carrier is detected automatically.',
      'Shipment tracking API that returns every checkpoint, the current status and the estimated delivery date.',
      'Container and ocean freight tracking by bill of lading or container number, with vessel position and ETA.',
      'Webhooks notify you when a package is out for delivery, delivered or held at customs.',
    ],
    extra: ['Status events are normalized across carriers.', 'Proof of delivery images where the carrier provides them.'],
  },
  {
    slug: 'sports-scores', method: 'GET',
    titles: ['Live Scores', 'Sports Scores', 'Sports Data', 'Fixtures and Results', 'Match Stats'],
    stems: ['Scoreboard', 'Halftime', 'Playbook', 'Overtime', 'Goalpost', 'Dugout'],
    paths: ['scores', 'games', 'fixtures', 'livescores', 'matches'],
    desc: [
      'Live scores and results for football (soccer), basketball, baseball, hockey, tennis and cricket{ from [n:500-2000] leagues|}.',
      'Sports data API: fixtures, standings, lineups and play-by-play for the NFL, NBA, MLB, NHL and the Premier League.',
      'Get the final score and box score of any game, plus team and player statistics for the season.',
      'In-play match events such as goals, cards and substitutions with sub-second latency.',
    ],
    extra: ['Odds are not included.', 'Historical seasons back to [n:1990-2010].'],
  },
  {
    slug: 'recipe-search', method: 'GET',
    titles: ['Recipe Search', 'Recipes API', 'Meal Ideas', 'Cooking Recipes', 'Nutrition and Recipes'],
    stems: ['Saffron', 'Whisk', 'Simmer', 'Ladle', 'Skillet'],
    paths: ['recipes/search', 'recipes', 'meals', 'recipes/by-ingredients'],
    desc: [
      'Search [n:100000-2000000] recipes by ingredients, cuisine, diet (vegan, keto, gluten-free) and cooking time.',
      'Recipe API returning ingredients, step-by-step instructions, servings and nutrition facts per serving.',
      'Find dishes you can cook with the ingredients you have: pass a list and get matching recipes ranked by missing items.',
      'Meal planning endpoint that builds a weekly menu and grocery list for a calorie target.',
    ],
    extra: ['Allergens are tagged.', 'Photos are included for most recipes.'],
  },
  {
    slug: 'job-search', method: 'GET',
    titles: ['Job Search', 'Job Listings', 'Jobs API', 'Career Search', 'Remote Jobs'],
    stems: ['Careerly', 'Vacancy', 'Talentgrid', 'Resumex', 'Workboard'],
    paths: ['jobs/search', 'jobs', 'postings', 'vacancies'],
    desc: [
      'Search job postings aggregated from company career pages and job boards by title, location, salary and remote option.',
      'Jobs API with [n:1-30] million active listings, normalized job titles and salary estimates.',
      'Find open positions at a given company or in an industry, updated {daily|every few hours}.',
      'Returns vacancies with employer, description, requirements, posting date and apply link.',
    ],
    extra: ['Duplicate postings are merged.', 'Expired jobs are removed within [n:1-3] days.'],
  },
  {
    slug: 'real-estate-valuation', method: 'GET',
    titles: ['Property Valuation', 'Home Value Estimate', 'AVM', 'Real Estate Data', 'Rent Estimate'],
    stems: ['Estately', 'Hearth', 'Parcelio', 'Keystone', 'Abode'],
    paths: ['valuation', 'avm', 'property/value', 'properties/estimate', 'rent-estimate'],
    desc: [
      'Automated valuation model (AVM) that estimates the market value of a residential property from its address.',
      'Home value and rent estimates with comparable sales, property characteristics and tax assessments.',
      'Real estate data API: sale history, square footage, bedrooms, lot size and estimated price range for [n:100-150] million properties.',
      'Appraisal-style valuation for investors with a confidence interval and neighborhood price trends.',
    ],
    extra: ['Coverage is strongest in the US and UK.', 'Estimates are refreshed monthly.'],
  },
  {
    slug: 'vehicle-vin-decode', method: 'GET',
    titles: ['VIN Decoder', 'Vehicle Lookup', 'VIN Check', 'Vehicle Specs', 'Vehicle History'],
    stems: ['Chassis', 'Odometer', 'Autodex', 'Motorly', 'Gearbox'],
    paths: ['vin/decode', 'vin', 'vehicles/decode', 'decode'],
    desc: [
      'Decode a 17-character VIN into make, model, year, trim, engine, transmission and plant of manufacture.',
      'Vehicle identification number lookup with specs, recalls and market value.',
      'VIN decoder covering cars, trucks and motorcycles sold in North America and Europe{ since 1981|}.',
      'Vehicle history report: title brands, accidents, odometer readings and previous owners from a VIN.',
    ],
    extra: ['Partial VINs are accepted with a warning.', 'Recall data comes from NHTSA.'],
  },
  {
    slug: 'time-zone', method: 'GET',
    titles: ['Time Zone', 'Timezone Lookup', 'World Clock', 'Local Time', 'UTC Offset'],
    stems: ['Meridiem', 'Tzdata', 'Sundial', 'Chronos'],
    paths: ['timezone', 'time/zone', 'tz', 'time/convert', 'localtime'],
    desc: [
      'Find the IANA time zone, UTC offset and daylight saving status for coordinates or a city.',
      'Returns the current local time anywhere on earth plus the next DST transition.',
      'Convert a timestamp from one time zone to another, handling daylight saving changes correctly.',
    ],
    extra: ['Built on the latest tz database release.', 'Abbreviations such as CET and PST are included.'],
  },
  {
    slug: 'holiday-calendar', method: 'GET',
    titles: ['Public Holidays', 'Holiday Calendar', 'Business Days', 'Bank Holidays', 'Working Days'],
    stems: ['Festivo', 'Almanac', 'Weekday', 'Daybook'],
    paths: ['holidays', 'holidays/public', 'calendar', 'business-days'],
    desc: [
      'Public and bank holidays for [n:100-230] countries and their regions for any year.',
      'Holiday calendar API with observed dates, school holidays and religious observances.',
      'Business day calculator: add working days to a date, skipping weekends and national holidays.',
    ],
    extra: ['Data is curated by hand each year.', 'Regional holidays are marked with ISO 3166-2 codes.'],
  },
  {
    slug: 'ecommerce-inventory', method: 'GET',
    titles: ['Inventory API', 'Stock Levels', 'Product Availability', 'Inventory Sync', 'Warehouse Stock'],
    stems: ['Shelf', 'Stockroom', 'Pallet', 'Storefront', 'Backorder'],
    paths: ['inventory', 'stock', 'products/availability', 'inventory/levels', 'skus'],
    desc: [
      'Check real-time inventory and stock levels for products across warehouses and sales channels by SKU.',
      'Product availability API for online stores: is an item in stock, how many units are left and when it will be restocked.',
      'Sync inventory counts between Shopify, WooCommerce and Amazon to avoid overselling.',
      'Returns on-hand, reserved and available quantities per SKU and location, with low-stock alerts.',
      'Query a merchant catalog for product price, variants and whether each variant is out of stock.',
    ],
    extra: ['Updates propagate to all channels within seconds.', 'Supports bundles and kits.'],
  },
  {
    slug: 'barcode-lookup', method: 'GET',
    titles: ['Barcode Lookup', 'UPC Lookup', 'Product Database', 'EAN Lookup'],
    stems: ['Scanbar', 'Upcly', 'Gtin', 'Labelry'],
    paths: ['barcode', 'products/lookup', 'upc', 'ean'],
    desc: [
      'Look up a product by UPC, EAN or ISBN barcode and get its name, brand, category, images and typical price.',
      'Barcode database with [n:100-800] million products, including nutrition data for groceries.',
      'GTIN lookup for retailers: resolves a scanned code to a product title, manufacturer and dimensions.',
    ],
    extra: ['Unknown codes can be submitted for research.', 'Images are provided at [n:300-1000] px.'],
  },
  {
    slug: 'qr-code', method: 'GET',
    titles: ['QR Code Generator', 'QR Codes', 'Barcode Generator', 'Dynamic QR'],
    stems: ['Qrly', 'Squarely', 'Pixelcode', 'Matrix'],
    paths: ['qr', 'qrcode', 'qr/create', 'codes'],
    desc: [
      'Generate a QR code for a URL, text, Wi-Fi credentials or a vCard as PNG or SVG.',
      'QR code API with custom colors, logos and error correction levels.',
      'Dynamic QR codes whose destination can be changed later, with scan analytics.',
    ],
    extra: ['Sizes up to [n:1000-4000] px.', 'Also decodes QR codes from an uploaded image.'],
  },
];

// Generic / noise listings.
const NOISE = {
  slug: 'noise', method: ['GET', 'POST'],
  titles: ['Premium Data API', 'Utility Endpoint', 'Test Listing', 'hello-x402', 'My Paid Endpoint', 'Demo', 'Echo',
    'Random Fact', 'Ping', 'Premium Content', 'Agent Tools', 'Data Feed', 'Pay Per Call API', 'Exclusive Insights',
    'test123', 'Untitled Service', 'Beta Endpoint', 'Paid API', 'Info Service', 'Smart Endpoint'],
  paths: ['data', 'premium', 'test', 'echo', 'hello', 'ping', 'content', 'api', 'resource', 'info', 'v', 'tool'],
  desc: [
    'Premium data for agents. Pay per request.',
    'A simple utility endpoint. Returns JSON.',
    'Test listing, please ignore.',
    'I am testing the x402 payment flow on Base; this endpoint just echoes your request back.',
    'Exclusive insights and real-time information for your workflow.',
    'Returns a random fact{ of the day|}.',
    'Unlock premium content with a micropayment.',
    'Hello world endpoint to verify that payments work.',
    'Multi-purpose API for data, search and more. Contact us for details.',
    'Get the latest updates. Powered by AI.',
    'Paid access to our internal tools.',
    'A paywalled resource. Send payment and receive the content.',
    'An experimental endpoint; I use it to learn how x402 works.',
    'Useful information for developers, updated regularly.',
    '{Demo|Sample|Example} service. Responses are placeholders.',
  ],
  extra: ['More endpoints coming soon.', 'No documentation yet.', 'Works with any x402 client.'],
};

// Sentences any listing may carry.
const GENERIC_EXTRAS = [
  'Median latency is [ms] ms.',
  'Typical response time is under [ms] ms{ in most regions|}.',
  'Costs $[price] per call, paid in USDC over x402.',
  'Each request is billed at [price] USDC{ on Base|}.',
  'Pay per call with no subscription and no API key.',
  'Rate limit: [n:10-600] requests per minute.',
  'Limited to [n:2-50] requests per second per payer.',
  'Responses are JSON{; CSV is also available|; XML on request|}.',
  'Results are paginated.',
  'Uptime of 99.[n:5-99]% over the last quarter.',
  'An OpenAPI spec is published for easy integration.',
  'Part of a suite of [n:3-40] endpoints from the same provider.',
  'If something breaks, I usually answer support email within a day.',
  'Hosted in {the EU|the US|Singapore|Frankfurt|Virginia} with servers in [n:2-12] regions.',
  'Responses are cached for [n:30-3600] seconds.',
  'Suitable for production use by agents and backend services.',
  'Beta: the output format may change.',
  'Batch requests of up to [n:10-500] items are accepted.',
  'Errors come back with an HTTP status and a short explanation.',
  'Payment is settled before the response is sent.',
];

const BRAND_LINES = [
  '[brand] is {a small team|an independent provider|a two-person company} based in [city].',
  '[brand] has been running this service since [n:2015-2024].',
  'Operated by [brand], a team who have built data APIs for {a decade|years}.',
  'Other endpoints from [brand] are listed in this catalog too.',
];

// ---------- template filling ----------
function commas(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }

function fill(s, ctx) {
  let prev;
  do {
    prev = s;
    s = s.replace(/\{([^{}]*)\}/g, (m, body) => pick(body.split('|')));
  } while (s !== prev);
  s = s.replace(/\[(\w+)(?::(\d+)-(\d+))?\]/g, (m, name, a, b) => {
    if (name === 'n') { const v = int(+a, +b); return v >= 10000 ? commas(v) : String(v); }
    if (name === 'brand') return ctx.brand;
    const pool = POOLS[name];
    if (!pool) throw new Error(`unknown pool ${name}`);
    return pick(pool);
  });
  return s;
}

// ---------- providers ----------
const usedBrands = new Set();
const usedHosts = new Set();
function makeProvider(stems) {
  for (let tries = 0; tries < 200; tries++) {
    const stem = stems && chance(0.7) ? pick(stems) : pick(GENERIC_STEMS);
    const suf = pick(SUFFIXES);
    const brand = stem + suf;
    if (usedBrands.has(brand)) continue;
    let host = brand.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const r = rnd();
    if (r < 0.12) host += '-api';
    else if (r < 0.18) host += 'hq';
    else if (r < 0.24) host = 'get' + host;
    const tld = pick(TLDS);
    if (usedHosts.has(host + '.' + tld)) continue;
    usedBrands.add(brand); usedHosts.add(host + '.' + tld);
    return { brand, host, tld };
  }
  // Practically unreachable; fall back to a numbered brand.
  const n = usedBrands.size;
  const brand = pick(GENERIC_STEMS) + ' ' + n;
  usedBrands.add(brand);
  return { brand, host: brand.toLowerCase().replace(/[^a-z0-9]+/g, ''), tld: 'com' };
}

function serviceName(cat, prov) {
  const t = pick(cat.titles);
  const r = rnd();
  let s;
  if (r < 0.28) s = `${prov.brand} ${t}`;
  else if (r < 0.40) s = `${t} by ${prov.brand}`;
  else if (r < 0.52) s = prov.brand;
  else if (r < 0.62) s = `${prov.brand} API`;
  else if (r < 0.70) s = `${prov.brand} ${t} ${pick(['v2', 'Pro', 'Lite', 'Plus', '(x402)'])}`;
  else if (r < 0.78) s = `${t} (${prov.brand})`;
  else if (r < 0.86) s = `${prov.brand}: ${t}`;
  else if (r < 0.93) s = t;
  else s = (t.toLowerCase().replace(/[^a-z0-9]+/g, '-') + '-' + prov.host).replace(/^-+|-+$/g, '');
  return s;
}

function makeListing(cat, prov) {
  const ctx = { brand: prov.brand };
  const method = Array.isArray(cat.method) ? pick(cat.method) : cat.method;
  const vr = rnd();
  const ver = vr < 0.8 ? 'v1' : vr < 0.95 ? 'v2' : 'v3';
  const url = `https://api.${prov.host}.${prov.tld}/${ver}/${pick(cat.paths)}`;
  const parts = [fill(pick(cat.desc), ctx)];
  if (cat.extra && chance(0.5)) parts.push(fill(pick(cat.extra), ctx));
  const ng = rnd() < 0.35 ? 0 : rnd() < 0.6 ? 1 : 2;
  const seen = new Set();
  for (let i = 0; i < ng; i++) {
    const e = pick(GENERIC_EXTRAS);
    if (seen.has(e)) continue;
    seen.add(e);
    parts.push(fill(e, ctx));
  }
  if (chance(0.15)) parts.push(fill(pick(BRAND_LINES), ctx));
  const clean = (s) => s.replace(/[\t\r\n]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  return { category: cat.slug, method, url: clean(url), name: clean(serviceName(cat, prov)), desc: clean(parts.join(' ')) };
}

// ---------- quotas ----------
const nNoise = Math.round(count * 0.10);
const nReal = count - nNoise;
const weights = CATS.map(() => 0.6 + rnd() * 0.9);
const wsum = weights.reduce((a, b) => a + b, 0);
const raw = weights.map((w) => (w / wsum) * nReal);
const quota = raw.map(Math.floor);
let left = nReal - quota.reduce((a, b) => a + b, 0);
raw.map((v, i) => [v - Math.floor(v), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  .slice(0, left).forEach(([, i]) => quota[i]++);

// ---------- build ----------
const rows = [];
CATS.forEach((cat, ci) => {
  const nProv = Math.max(1, Math.min(quota[ci], 10 + int(0, 12)));
  const provs = [];
  for (let i = 0; i < nProv; i++) provs.push(makeProvider(cat.stems));
  for (let i = 0; i < quota[ci]; i++) rows.push(makeListing(cat, pick(provs)));
});
{
  const nProv = Math.max(1, Math.min(nNoise, 25));
  const provs = [];
  for (let i = 0; i < nProv; i++) provs.push(makeProvider(null));
  for (let i = 0; i < nNoise; i++) rows.push(makeListing(NOISE, pick(provs)));
}
shuffle(rows);

process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
const out = [];
rows.forEach((r, id) => out.push([id, r.category, r.method, r.url, r.name, r.desc].join('\t')));
process.stdout.write(out.join('\n') + '\n');
