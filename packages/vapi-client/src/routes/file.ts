/** Files: POST/GET /file, POST /file/upload (deprecated), GET/PATCH/DELETE /file/{id}. */
import { path, type Requester, type RequestOptions } from '../request.js';
import type { ListFilesQuery, UpdateFileDTO, UploadFileOptions, VapiFile } from '../types.js';

function fileForm(file: Blob, options: UploadFileOptions): FormData {
  const form = new FormData();
  const ownName = typeof (file as { name?: unknown }).name === 'string' ? (file as File).name : '';
  form.append('file', file, options.name ?? (ownName || 'file'));
  if (options.purpose) form.append('purpose', options.purpose);
  if (options.metadata) form.append('metadata', JSON.stringify(options.metadata));
  return form;
}

/**
 * Uploads one file as multipart field `file`. The new file starts `processing`; poll `getFile`.
 * @example await uploadFile(r, new File(['# FAQ'], 'faq.md', { type: 'text/markdown' }))
 */
export const uploadFile = <T = VapiFile>(
  r: Requester,
  file: Blob,
  options: UploadFileOptions & RequestOptions = {},
) => {
  const { signal, headers, ...rest } = options;
  return r.request<T>({ method: 'POST', path: '/file', form: fileForm(file, rest), signal, headers });
};
/** A plain array, no pagination. The document requires `purpose` since 2026-07-30: send it. */
export const listFiles = <T = VapiFile[]>(r: Requester, query?: ListFilesQuery, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: '/file', query, ...o });
/** @deprecated The provider marks POST /file/upload deprecated; use `uploadFile`. */
export const uploadFileLegacy = <T = VapiFile>(
  r: Requester,
  file: Blob,
  options: UploadFileOptions & RequestOptions = {},
) => {
  const { signal, headers, ...rest } = options;
  return r.request<T>({ method: 'POST', path: '/file/upload', form: fileForm(file, rest), signal, headers });
};
export const getFile = <T = VapiFile>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'GET', path: path`/file/${id}`, ...o });
/** Renames a file: PATCH accepts `{ name }` only. */
export const updateFile = <T = VapiFile>(r: Requester, id: string, body: UpdateFileDTO, o?: RequestOptions) =>
  r.request<T>({ method: 'PATCH', path: path`/file/${id}`, body, ...o });
export const deleteFile = <T = VapiFile>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/file/${id}`, ...o });
