// Parse a built folder's _redirects and _headers with Netlify's own parsers; print JSON.
import { parseAllRedirects } from '@netlify/redirect-parser'
import { parseAllHeaders } from '@netlify/headers-parser'

const dir = process.argv[2]
const redirects = await parseAllRedirects({ redirectsFiles: [`${dir}/_redirects`], configRedirects: [], minimal: true })
const headers = await parseAllHeaders({ headersFiles: [`${dir}/_headers`], configHeaders: [], minimal: true })
console.log(JSON.stringify({
  redirects: redirects.redirects,
  headers: headers.headers,
  errors: [...redirects.errors, ...headers.errors].map(String),
}))
