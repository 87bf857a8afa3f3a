import { HttpException } from '@nestjs/common';
import { NextFunction, Request, Response, urlencoded } from 'express';

/**
 * Parses `application/x-www-form-urlencoded` bodies (the SAML HTTP-POST binding). Client errors
 * of the parser (too large, too many fields, bad charset) keep their 4xx status in the usual
 * error shape instead of surfacing as a 500.
 */
export function formBody(limit: string) {
  const parse = urlencoded({ extended: false, limit });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: unknown) => {
      const status = (error as { status?: number } | undefined)?.status;
      if (error && typeof status === 'number' && status >= 400 && status < 500) {
        next(new HttpException(status === 413 ? 'Request body is too large' : 'Malformed form body', status));
        return;
      }
      next(error);
    });
  };
}
