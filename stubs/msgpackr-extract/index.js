'use strict';
// msgpackr loads its native string extractor inside a try/catch; failing here selects its pure JavaScript path.
throw new Error('msgpackr-extract (native) is not installed');
