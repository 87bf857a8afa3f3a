import { Injectable } from '@nestjs/common';
import { FilesService } from '../../content/application/files.service';
import { FontView } from '../application/custom-fonts.service';

/** GitBook's CustomizationFontDefinition: each face's file as a source served by our public download route. */
@Injectable()
export class CustomFontPresenter {
  constructor(private readonly files: FilesService) {}

  present({ font, types, canEdit }: FontView) {
    return {
      id: font.id,
      custom: true,
      fontFamily: font.fontFamily,
      fontFaces: font.faces.map((face) => ({
        weight: face.weight,
        sources: [{ url: this.files.downloadUrl(face), format: /woff2/i.test(types.get(face.storageKey) ?? '') ? ('woff2' as const) : ('woff' as const) }],
      })),
      permissions: { edit: canEdit },
    };
  }
}
