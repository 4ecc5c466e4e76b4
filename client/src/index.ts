// The dashboard's SDK: typed documents (one per screen operation), their result and variable types,
// the persisted-documents manifest and a fetch helper.
export * from './gql/graphql.js';
export { createClient, GraphQLRequestError, type Client, type ClientOptions, type GraphQLErrorEntry, type RequestOptions } from './request.js';
export { default as persistedDocuments } from './gql/persisted-documents.js';
